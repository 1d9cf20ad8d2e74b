#include "chaos_check.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "docket/inbox/inbox_store.h"
#include "docket/stores/open_store.h"
#include "services.h"

namespace docket::tool {
namespace {

constexpr std::size_t kFeedPage = 500;

// Invoices per order id.
std::map<std::string, std::int64_t, std::less<>> invoices_by_order(
    const examples::OrderServices& services, std::string_view run) {
  std::map<std::string, std::int64_t, std::less<>> invoices;
  for (std::string& order : services.invoiced_orders(run)) {
    ++invoices[std::move(order)];
  }
  return invoices;
}

// The run's outbox messages (order id -> records), read from the outbox's feed.
std::map<std::string, std::vector<OutboxRecord>, std::less<>> messages_by_order(
    OutboxStore& outbox, std::string_view run) {
  std::map<std::string, std::vector<OutboxRecord>, std::less<>> messages;
  std::int64_t after = 0;
  for (;;) {
    std::vector<OutboxRecord> page = outbox.read_feed(after, kFeedPage);
    if (page.empty()) {
      return messages;
    }
    after = page.back().sequence;
    for (OutboxRecord& record : page) {
      if (record.correlation_id && examples::is_order_of_run(*record.correlation_id, run)) {
        messages[*record.correlation_id].push_back(std::move(record));
      }
    }
  }
}

}  // namespace

ChaosProgress chaos_progress(const examples::OrderServices& services, std::string_view run) {
  return {.orders = static_cast<std::int64_t>(services.placed_orders(run).size()),
          .invoiced = static_cast<std::int64_t>(invoices_by_order(services, run).size())};
}

ChaosCheck check_chaos_run(std::string_view store_url, const examples::OrderServices& services,
                           std::string_view run) {
  ChaosCheck check;
  const std::vector<std::string> placed = services.placed_orders(run);
  const std::set<std::string, std::less<>> orders(placed.begin(), placed.end());
  const auto invoices = invoices_by_order(services, run);
  check.orders = static_cast<std::int64_t>(orders.size());
  for (const auto& [order, count] : invoices) {
    check.invoices += count;
    if (!orders.contains(order)) {
      check.phantom += count;
    } else if (count > 1) {
      ++check.doubled;
    }
  }
  for (const std::string& order : orders) {
    check.lost += invoices.contains(order) ? 0 : 1;
  }
  std::set<std::string, std::less<>> invoiced_orders;
  for (const auto& [order, count] : invoices) {
    invoiced_orders.insert(order);
  }
  check.ledger = ChaosLedger(store_url).check(run, invoiced_orders);

  const auto outbox = open_outbox_store(store_url);
  if (outbox->capabilities().feed != FeedKind::kGlobalPositions) {
    return check;
  }
  check.outbox_checked = true;
  const auto inbox = open_inbox_store(store_url);
  const auto messages = messages_by_order(*outbox, run);
  for (const std::string& order : orders) {
    const auto found = messages.find(order);
    if (found == messages.end() || found->second.size() != 1) {
      ++check.orders_without_message;
    }
  }
  for (const auto& [order, records] : messages) {
    check.orders_without_message += orders.contains(order) ? 0 : 1;
    const bool invoiced = invoices.contains(order);
    for (const OutboxRecord& record : records) {
      ++check.messages;
      check.unpublished += record.status == OutboxStatus::kDone ? 0 : 1;
      const bool recorded =
          inbox->is_recorded({.tenant = record.tenant,
                              .consumer_id = std::string(examples::kBillingConsumer),
                              .message_id = record.id});
      check.dedup_without_effect += recorded && !invoiced ? 1 : 0;
      check.effect_without_dedup += invoiced && !recorded ? 1 : 0;
    }
  }
  return check;
}

}  // namespace docket::tool
