#include "outbox_workload.h"

#include <algorithm>

namespace docket::bench {

OutboxRecord bench_outbox_record(std::string_view id, std::int64_t sequence, Timestamp now,
                                 std::string_view source) {
  return OutboxRecord{.sequence = sequence,
                      .id = std::string(id),
                      .tenant = std::string(kOutboxTenant),
                      .event_type = std::string(kOutboxEventType),
                      .payload = std::string(kOutboxPayload),
                      .occurred_at = now,
                      .source = std::string(source),
                      .causation_id = std::nullopt,
                      .correlation_id = std::nullopt,
                      .traceparent = {},
                      .tracestate = {},
                      .destination = std::string(kOutboxEventType),
                      .ordering_key = std::nullopt,
                      .headers = {},
                      .created_at = now,
                      .status = OutboxStatus::kPending,
                      .attempts = 0,
                      .next_attempt_at = now,
                      .last_error = std::nullopt,
                      .done_at = std::nullopt};
}

std::vector<std::string> PublishLog::sorted_ids() const {
  std::vector<std::string> ids;
  {
    std::lock_guard lock(mutex_);
    ids = ids_;
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace docket::bench
