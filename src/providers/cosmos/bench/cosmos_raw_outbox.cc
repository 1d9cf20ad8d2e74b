// The raw limit of `docket bench outbox` on Cosmos DB (cosmos_raw_outbox.h).
#include "cosmos_raw_outbox.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/outbox/outbox_schema.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_item.h"
#include "providers/kit/outbox_row.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"
#include "raw_relay_pass.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

namespace outbox = cosmos::detail::outbox;

// How many times a claim reads the partition key ranges again when one went (split).
constexpr int kCosmosRangeReads = 5;
// The operations of one transactional batch.
constexpr std::size_t kCosmosBatchOperations = 100;
// The property the counter item keeps its number in (cosmos_sequence_counter.cc).
constexpr std::string_view kCounterProperty = "lastSequence";

const std::string kPending(outbox::kPendingSequence);
// The inbox container's partition key property (its path "/pk"), as the raw inbox writes it.
const std::string kPartitionKey = "pk";

nlohmann::json replace_operation(std::string_view id, std::string_view partition,
                                 const nlohmann::json& body, std::string_view etag) {
  return {{"operationType", "Replace"},
          {"id", id},
          {"partitionKey", cosmos::detail::partition_key_header(partition)},
          {"ifMatch", etag},
          {"resourceBody", body}};
}

// `item` without the properties the service adds (_rid, _self, _etag, _attachments, _ts),
// which docket's rewrites do not send either.
nlohmann::json without_system_properties(const nlohmann::json& item) {
  nlohmann::json body = nlohmann::json::object();
  for (const auto& [name, value] : item.items()) {
    if (name.empty() || name.front() != '_') {
      body[name] = value;
    }
  }
  return body;
}

}  // namespace

RawOutboxCosmos::RawOutboxCosmos(const std::string& url, const std::string& source,
                                 const MessageIds& ids, PublishLog& log, std::size_t batch)
    : rest_(url),
      container_(rest_.client().url().container(cosmos::detail::kInboxContainerBase)),
      source_(source),
      ids_(ids),
      log_(log),
      batch_(batch) {
  const cosmos::detail::SequenceCounter counter =
      outbox::sequence_counter(rest_.client().url().prefix);
  counter_container_ = counter.container;
  counter_id_ = counter.id;
  // Set-up, not measured: the counter item at 0 where no draw made it yet (409: made).
  rest_.client().ensure_container(counter_container_, "/id");
  rest_.create(counter_container_, counter_id_,
               {{"id", counter_id_}, {std::string(kCounterProperty), 0}});
  // Set-up too: the ranges the relay's query goes to, read again when one goes.
  ranges_ = rest_.partition_key_ranges(container_);
}

std::int64_t RawOutboxCosmos::draw(std::int64_t count) {
  const std::optional<std::int64_t> last =
      rest_.increment(counter_container_, counter_id_, kCounterProperty, count);
  if (!last) {
    throw InfrastructureError("raw Cosmos DB outbox baseline: the sequence counter item '" +
                              counter_id_ + "' in container '" + counter_container_ + "' is gone");
  }
  return *last;
}

nlohmann::json RawOutboxCosmos::message_item(std::string_view id, std::int64_t sequence,
                                             std::int64_t now) const {
  // The item docket's store writes of the message (outbox_item()), numbered and pending.
  nlohmann::json item = outbox::outbox_item(
      kit::OutboxRow{.record = bench_outbox_record(id, sequence, kit::from_micros(now), source_)});
  item["id"] = id;
  item[kPartitionKey] = kOutboxTenant;
  return item;
}

void RawOutboxCosmos::stage(std::size_t message) {
  const std::int64_t sequence = draw(1);
  if (!rest_.create(container_, kOutboxTenant,
                    message_item(ids_.id(message), sequence, now_micros()))) {
    throw InfrastructureError("raw Cosmos DB outbox baseline: message " +
                              std::string(ids_.id(message)) + " was staged before");
  }
}

void RawOutboxCosmos::fill(std::size_t first, std::size_t count) {
  if (count > kCosmosBatchOperations) {
    throw InvalidInputError("raw Cosmos DB outbox baseline: a fill of " + std::to_string(count) +
                            " messages is more than one transactional batch holds (" +
                            std::to_string(kCosmosBatchOperations) + ")");
  }
  const std::int64_t last = draw(static_cast<std::int64_t>(count));
  const std::int64_t now = now_micros();
  nlohmann::json operations = nlohmann::json::array();
  for (std::size_t m = 0; m < count; ++m) {
    const std::string_view id = ids_.id(first + m);
    operations.push_back(
        {{"operationType", "Create"},
         {"id", id},
         {"partitionKey", cosmos::detail::partition_key_header(kOutboxTenant)},
         {"resourceBody", message_item(id, last - static_cast<std::int64_t>(count - m) + 1, now)}});
  }
  if (const std::optional<RawBatchFailure> failure =
          rest_.batch(container_, kOutboxTenant, operations)) {
    throw InfrastructureError("raw Cosmos DB outbox baseline: a fill batch failed at operation " +
                              std::to_string(failure->index) + " (HTTP " +
                              std::to_string(failure->status) + ")");
  }
}

void RawOutboxCosmos::rewrite(std::vector<Item>& group,
                              const std::function<void(nlohmann::json&)>& change,
                              bool one_by_one_after_failure) {
  std::vector<Item> written;
  for (std::size_t from = 0; from < group.size(); from += kCosmosBatchOperations) {
    const std::size_t to = std::min(group.size(), from + kCosmosBatchOperations);
    nlohmann::json operations = nlohmann::json::array();
    for (std::size_t i = from; i < to; ++i) {
      change(group[i].body);
      operations.push_back(
          replace_operation(group[i].id, group[i].partition, group[i].body, group[i].etag));
    }
    const std::string& partition = group[from].partition;
    if (const auto etags = rest_.batch_etags(container_, partition, operations)) {
      for (std::size_t i = from; i < to; ++i) {
        group[i].etag = (*etags)[i - from];
        written.push_back(std::move(group[i]));
      }
      continue;
    }
    if (!one_by_one_after_failure) {
      continue;
    }
    // The lease was lost on one of them (it ran out and another relay took it): each on
    // its own, so the others are still marked.
    for (std::size_t i = from; i < to; ++i) {
      if (auto etag =
              rest_.replace(container_, partition, group[i].id, group[i].body, group[i].etag)) {
        group[i].etag = std::move(*etag);
        written.push_back(std::move(group[i]));
      }
    }
  }
  group = std::move(written);
}

std::vector<nlohmann::json> RawOutboxCosmos::due_messages(std::int64_t now, std::size_t wanted) {
  const std::string_view sql =
      "SELECT * FROM c WHERE c.docketTable = @table AND c.pendingSequence > 0 AND "
      "c.nextAttemptAt <= @now AND (NOT IS_NUMBER(c.leaseUntil) OR c.leaseUntil <= @now) "
      "ORDER BY c.pendingSequence";
  const nlohmann::json parameters = {{{"name", "@table"}, {"value", kOutboxTable}},
                                     {{"name", "@now"}, {"value", now}}};
  for (int attempt = 0; attempt < kCosmosRangeReads; ++attempt) {
    std::vector<nlohmann::json> due;
    bool gone = false;
    for (const std::string& range : ranges_) {
      std::optional<nlohmann::json> page =
          rest_.query_range(container_, range, sql, parameters, wanted);
      if (!page) {
        gone = true;
        break;
      }
      std::move(page->begin(), page->end(), std::back_inserter(due));
    }
    if (gone) {
      ranges_ = rest_.partition_key_ranges(container_);  // a range split or merged away
      continue;
    }
    // Each range's lowest `wanted` hold the lowest `wanted` of all.
    std::sort(due.begin(), due.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
      return a.value(kPending, std::int64_t{0}) < b.value(kPending, std::int64_t{0});
    });
    due.resize(std::min(due.size(), wanted));
    return due;
  }
  throw InfrastructureError("raw Cosmos DB outbox baseline: the partition key ranges of '" +
                            container_ + "' changed under " + std::to_string(kCosmosRangeReads) +
                            " reads in a row");
}

LeaseRound<RawOutboxCosmos::Item> RawOutboxCosmos::lease_round(std::string_view token,
                                                               std::int64_t now,
                                                               std::int64_t lease_until,
                                                               std::size_t wanted) {
  const std::vector<nlohmann::json> due = due_messages(now, wanted);
  std::map<std::string, std::vector<Item>> by_partition;
  for (const nlohmann::json& item : due) {
    Item found{.sequence = item.value(kPending, std::int64_t{0}),
               .id = item.value("id", std::string()),
               .partition = item.value(kPartitionKey, std::string()),
               .body = without_system_properties(item),
               .etag = item.value("_etag", std::string())};
    by_partition[found.partition].push_back(std::move(found));
  }
  LeaseRound<Item> round{.leased = {}, .read = due.size()};
  for (auto& [partition, group] : by_partition) {
    rewrite(
        group,
        [&](nlohmann::json& body) {
          body["leaseToken"] = token;
          body["leaseUntil"] = lease_until;
        },
        false);
    std::move(group.begin(), group.end(), std::back_inserter(round.leased));
  }
  return round;
}

RelayTally RawOutboxCosmos::relay_pass() {
  const std::string token = Uuid::v4().to_string();
  const std::int64_t now = now_micros();
  std::vector<Item> claimed = lease_in_rounds<Item>(batch_, [&](std::size_t wanted) {
    return lease_round(token, now, now + kRawOutboxLeaseMicros, wanted);
  });
  RelayTally tally = publish_in_sequence_order(claimed, log_);
  if (claimed.empty()) {
    return tally;
  }
  const std::int64_t done_at = now_micros();
  std::map<std::string, std::vector<Item>> by_partition;
  for (Item& message : claimed) {
    by_partition[message.partition].push_back(std::move(message));
  }
  for (auto& [partition, group] : by_partition) {
    rewrite(
        group,
        [&](nlohmann::json& body) {
          body["status"] = kit::outbox_status_code(OutboxStatus::kDone);
          body["doneAt"] = done_at;
          body.erase(kPending);
          body["leaseToken"] = nullptr;
          body["leaseUntil"] = nullptr;
        },
        true);
    tally.published += group.size();
  }
  tally.not_done = tally.claimed - tally.published;
  return tally;
}

OutboxRunRows cosmos_outbox_run_rows(const std::string& url, std::string_view run_id) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url),
                                      cosmos_check_client_options());
  const std::vector<nlohmann::json> items = cosmos::detail::query_items(
      client,
      {.container = client.url().container(cosmos::detail::kInboxContainerBase),
       .sql = "SELECT c.id, c.status FROM c WHERE c.docketTable = @table AND c.source = @run",
       .parameters = {{{"name", "@table"}, {"value", kOutboxTable}},
                      {{"name", "@run"}, {"value", run_id}}}},
      std::numeric_limits<std::size_t>::max());
  OutboxRunRows rows;
  const std::int64_t done = kit::outbox_status_code(OutboxStatus::kDone);
  for (const nlohmann::json& item : items) {
    rows.ids.push_back(item.value("id", std::string()));
    rows.done += item.value("status", std::int64_t{-1}) == done ? 1 : 0;
  }
  return rows;
}

std::int64_t cosmos_pending_outbox_rows(const std::string& url) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url),
                                      cosmos_check_client_options());
  return static_cast<std::int64_t>(cosmos::detail::query_count(
      client, {.container = client.url().container(cosmos::detail::kInboxContainerBase),
               .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.docketTable = @table AND "
                      "IS_DEFINED(c.pendingSequence)",
               .parameters = {{{"name", "@table"}, {"value", kOutboxTable}}}}));
}

}  // namespace docket::bench
