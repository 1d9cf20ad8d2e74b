#include "providers/firestore/firestore_inbox_document.h"

#include <optional>

#include "docket/keys/provider.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/key_bridge.h"

namespace docket::firestore::detail::inbox {

std::string dedup_id(std::string_view collection, const DedupKey& key) {
  std::string id = kit::inbox_dedup_id(keys::Provider::kFirestore, key).value;
  check_document_id(collection, id);
  return id;
}

nlohmann::json dedup_fields(const InboxRecord& record, Timestamp processed_at) {
  const auto optional = [](const std::optional<std::string>& text) {
    return text ? string_value(*text) : null_value();
  };
  return {{kTenant, string_value(record.key.tenant)},
          {kMessageId, string_value(record.key.message_id)},
          {kHandlerType, string_value(record.key.consumer_id)},
          {kEventType, string_value(record.event_type)},
          {kOccurredAt, timestamp_value(record.occurred_at)},
          {kProcessedAt, timestamp_value(processed_at)},
          {kSource, optional(record.source)},
          {kCausationId, optional(record.causation_id)},
          {kCorrelationId, optional(record.correlation_id)}};
}

}  // namespace docket::firestore::detail::inbox
