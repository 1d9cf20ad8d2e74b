#include "cosmos_raw_inbox.h"

#include <algorithm>
#include <set>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/keys/provider.h"
#include "first_deliveries.h"
#include "inbox_workload.h"
#include "providers/cosmos/cosmos_exact_time.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::size_t kMessagesPerBatch = 50;  // two operations each, of a batch's 100

nlohmann::json create_operation(std::string_view id, const std::string& partition,
                                nlohmann::json item) {
  item["id"] = id;
  item["pk"] = partition;
  return {{"operationType", "Create"},
          {"id", id},
          {"partitionKey", cosmos::detail::partition_key_header(partition)},
          {"resourceBody", std::move(item)}};
}

}  // namespace

std::string cosmos_effect_id(std::string_view message_id) {
  return "effect:" + std::string(message_id);
}

nlohmann::json cosmos_effect_item(std::string_view consumer_id, std::string_view message_id,
                                  std::string_view body) {
  return {{cosmos::detail::kTableProperty, kCosmosEffectTable},
          {"consumerId", consumer_id},
          {"messageId", message_id},
          {"body", body}};
}

RawInboxCosmos::RawInboxCosmos(const std::string& url, std::string_view consumer_id,
                               DedupCheck dedup)
    : rest_(url),
      container_(rest_.client().url().container(cosmos::detail::kInboxContainerBase)),
      tenant_(TenantId::untenanted().value()),
      consumer_id_(consumer_id),
      dedup_(dedup) {}

void RawInboxCosmos::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  commit({&delivery, 1}, counts);
}

void RawInboxCosmos::deliver_batch(std::span<const BenchDelivery> deliveries,
                                   DispatchCounts& counts) {
  for (std::size_t from = 0; from < deliveries.size(); from += kMessagesPerBatch) {
    commit(deliveries.subspan(from, std::min(kMessagesPerBatch, deliveries.size() - from)), counts);
  }
}

std::string RawInboxCosmos::dedup_id_of(const BenchDelivery& delivery) const {
  return kit::inbox_dedup_id(keys::Provider::kCosmosDb,
                             DedupKey{tenant_, consumer_id_, std::string(delivery.message_id)})
      .value;
}

void RawInboxCosmos::drop_recorded(std::vector<const BenchDelivery*>& pending,
                                   DispatchCounts& counts) {
  nlohmann::json ids = nlohmann::json::array();
  for (const BenchDelivery* delivery : pending) {
    ids.push_back(dedup_id_of(*delivery));
  }
  const nlohmann::json found =
      rest_.query(container_, tenant_,
                  "SELECT VALUE c.id FROM c WHERE c.pk = @pk AND ARRAY_CONTAINS(@ids, c.id)",
                  {{{"name", "@pk"}, {"value", tenant_}}, {{"name", "@ids"}, {"value", ids}}});
  const std::set<std::string> recorded(found.begin(), found.end());
  const std::size_t before = pending.size();
  std::erase_if(pending, [&](const BenchDelivery* delivery) {
    return recorded.contains(dedup_id_of(*delivery));
  });
  counts.skipped_duplicates += before - pending.size();
}

bool RawInboxCosmos::recorded(const BenchDelivery& delivery) {
  return rest_.read(container_, dedup_id_of(delivery), tenant_).has_value();
}

void RawInboxCosmos::commit(std::span<const BenchDelivery> batch, DispatchCounts& counts) {
  std::vector<const BenchDelivery*> pending = first_deliveries(batch, counts);
  if (pending.size() > 1) {
    drop_recorded(pending, counts);
  } else if (dedup_ == DedupCheck::kBeforeHandlers && pending.size() == 1 &&
             recorded(*pending.front())) {
    ++counts.skipped_duplicates;
    return;
  }
  const std::int64_t now = now_micros();
  while (!pending.empty()) {
    nlohmann::json operations = nlohmann::json::array();
    for (const BenchDelivery* delivery : pending) {
      // The dedup item as docket's store writes it (cosmos_inbox_store.h).
      operations.push_back(create_operation(
          dedup_id_of(*delivery), tenant_,
          {{cosmos::detail::kTableProperty, kInboxMessagesTable},
           {"tenant", tenant_},
           {"consumerId", consumer_id_},
           {"messageId", delivery->message_id},
           {"eventType", kBenchEventType},
           {"occurredAt",
            cosmos::detail::exact_time(kit::from_micros(delivery->occurred_at_micros))},
           {"processedAt", now},
           {"source", nullptr},
           {"causationId", nullptr},
           {"correlationId", nullptr}}));
      operations.push_back(
          create_operation(cosmos_effect_id(delivery->message_id), tenant_,
                           cosmos_effect_item(consumer_id_, delivery->message_id, kBenchPayload)));
    }
    const std::optional<RawBatchFailure> failure = rest_.batch(container_, tenant_, operations);
    if (!failure) {
      counts.processed += pending.size();
      return;
    }
    // A dedup item created meanwhile (409 at an even index): that message is a duplicate,
    // the rest are sent again.
    if (failure->status != 409 || failure->index % 2 != 0) {
      throw InfrastructureError("raw Cosmos DB inbox baseline: a batch failed at operation " +
                                std::to_string(failure->index) + " (HTTP " +
                                std::to_string(failure->status) + ")");
    }
    pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(failure->index / 2));
    ++counts.skipped_duplicates;
  }
}

}  // namespace docket::bench
