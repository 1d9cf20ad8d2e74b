#include "firestore_raw_inbox.h"

#include <algorithm>
#include <set>

#include "docket/core/tenant.h"
#include "docket/inbox/inbox_schema.h"
#include "first_deliveries.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_inbox_document.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::string_view kFirestoreEffectsBase = "docket_bench_effects";
constexpr std::size_t kFirestoreMessagesPerCommit = firestore::detail::kMaxWritesPerCommit / 2;

}  // namespace

std::string firestore_effects_collection(const std::string& url) {
  return firestore::detail::parse_store_url(url).collection(kFirestoreEffectsBase);
}

nlohmann::json firestore_effect_fields(std::string_view consumer_id, std::string_view body) {
  return {{"consumerId", firestore::detail::string_value(consumer_id)},
          {"body", firestore::detail::string_value(body)}};
}

RawInboxFirestore::RawInboxFirestore(const std::string& url, std::string_view consumer_id,
                                     DedupCheck dedup)
    : client_(firestore::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      inbox_(client_.url().collection(kInboxMessagesTable)),
      effects_(firestore_effects_collection(url)),
      consumer_id_(consumer_id),
      dedup_(dedup) {}

void RawInboxFirestore::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  commit({&delivery, 1}, counts);
}

void RawInboxFirestore::deliver_batch(std::span<const BenchDelivery> deliveries,
                                      DispatchCounts& counts) {
  for (std::size_t from = 0; from < deliveries.size(); from += kFirestoreMessagesPerCommit) {
    commit(
        deliveries.subspan(from, std::min(kFirestoreMessagesPerCommit, deliveries.size() - from)),
        counts);
  }
}

std::string RawInboxFirestore::dedup_id_of(const BenchDelivery& delivery) const {
  return firestore::detail::inbox::dedup_id(
      inbox_, DedupKey{std::string(TenantId::untenanted().value()), consumer_id_,
                       std::string(delivery.message_id)});
}

void RawInboxFirestore::drop_recorded(std::vector<const BenchDelivery*>& pending,
                                      DispatchCounts& counts) {
  std::vector<std::string> ids;
  for (const BenchDelivery* delivery : pending) {
    ids.push_back(dedup_id_of(*delivery));
  }
  const auto found = firestore::detail::batch_get(client_, inbox_, ids);
  std::set<const BenchDelivery*> recorded;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (found[i]) {
      recorded.insert(pending[i]);
    }
  }
  std::erase_if(pending,
                [&](const BenchDelivery* delivery) { return recorded.contains(delivery); });
  counts.skipped_duplicates += recorded.size();
}

bool RawInboxFirestore::recorded(const BenchDelivery& delivery) {
  return firestore::detail::get_document(client_, inbox_, dedup_id_of(delivery)).has_value();
}

void RawInboxFirestore::commit(std::span<const BenchDelivery> batch, DispatchCounts& counts) {
  std::vector<const BenchDelivery*> pending = first_deliveries(batch, counts);
  if (pending.size() > 1) {
    drop_recorded(pending, counts);
  } else if (dedup_ == DedupCheck::kBeforeHandlers && pending.size() == 1 &&
             recorded(*pending.front())) {
    ++counts.skipped_duplicates;
    return;
  }
  const Timestamp now = kit::from_micros(now_micros());
  while (!pending.empty()) {
    std::vector<firestore::detail::Write> writes;
    for (const BenchDelivery* delivery : pending) {
      const InboxRecord record{.key = {std::string(TenantId::untenanted().value()), consumer_id_,
                                       std::string(delivery->message_id)},
                               .event_type = std::string(kBenchEventType),
                               .occurred_at = kit::from_micros(delivery->occurred_at_micros),
                               .source = std::nullopt,
                               .causation_id = std::nullopt,
                               .correlation_id = std::nullopt};
      writes.push_back({.collection = inbox_,
                        .id = dedup_id_of(*delivery),
                        .fields = firestore::detail::inbox::dedup_fields(record, now),
                        .precondition = {.exists = false}});
      writes.push_back({.collection = effects_,
                        .id = std::string(delivery->message_id),
                        .fields = firestore_effect_fields(consumer_id_, kBenchPayload)});
    }
    if (firestore::detail::commit(client_, writes, inbox_).applied) {
      counts.processed += pending.size();
      return;
    }
    if (pending.size() == 1) {  // only its dedup document has a precondition
      ++counts.skipped_duplicates;
      return;
    }
    drop_recorded(pending, counts);  // a concurrent delivery recorded some meanwhile
  }
}

}  // namespace docket::bench
