#include "providers/firestore/firestore_claim_document.h"

#include <optional>
#include <string>

#include "providers/firestore/firestore_value.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/time_codec.h"

namespace docket::firestore::detail::claim {
namespace {

nlohmann::json optional_string_value(const std::optional<std::string>& text) {
  return text ? string_value(*text) : null_value();
}

nlohmann::json optional_timestamp_value(const std::optional<Timestamp>& t) {
  return t ? timestamp_value(*t) : null_value();
}

std::optional<std::int64_t> optional_micros(const std::optional<Timestamp>& t) {
  return t ? std::optional<std::int64_t>(kit::to_micros(*t)) : std::nullopt;
}

}  // namespace

nlohmann::json claim_fields(const ClaimEntry& entry) {
  return {{kTenant, string_value(entry.key.tenant().value())},
          {kMessageId, string_value(entry.key.message_id())},
          {kHandlerType, string_value(entry.key.handler_type())},
          {kStatus, string_value(to_string(entry.status))},
          {kRetryCount, integer_value(entry.retry_count)},
          {kReceivedAt, timestamp_value(entry.received_at)},
          {kUpdatedAt, timestamp_value(entry.updated_at)},
          {kOwner, optional_string_value(entry.owner)},
          {kClaimId, optional_string_value(entry.claim_id)},
          {kLeaseUntil, optional_timestamp_value(entry.lease_until)},
          {kProcessedAt, optional_timestamp_value(entry.processed_at)},
          {kLastError, optional_string_value(entry.last_error)},
          {kNextAttemptAt, optional_timestamp_value(entry.next_attempt_at)}};
}

ClaimEntry claim_entry_of(const Document& document, std::string_view store) {
  const FieldReader reader(document.fields,
                           std::string(store) + ", document '" + document.id + "'");
  const std::string tenant = reader.string(kTenant);
  const std::string message_id = reader.string(kMessageId);
  const std::string handler_type = reader.string(kHandlerType);
  const std::string status = reader.string(kStatus);
  const std::optional<std::string> owner = reader.optional_string(kOwner);
  // Absent on a document written before claim ids existed: read as none.
  const std::optional<std::string> claim_id = reader.optional_string(kClaimId);
  const std::optional<std::string> last_error = reader.optional_string(kLastError);
  const kit::StoredClaimEntry stored{
      .tenant = tenant,
      .message_id = message_id,
      .handler_type = handler_type,
      .status = status,
      .retry_count = reader.integer(kRetryCount),
      .received_at = kit::to_micros(reader.timestamp(kReceivedAt)),
      .updated_at = kit::to_micros(reader.timestamp(kUpdatedAt)),
      .owner = owner ? std::optional<std::string_view>(*owner) : std::nullopt,
      .claim_id = claim_id ? std::optional<std::string_view>(*claim_id) : std::nullopt,
      .lease_until = optional_micros(reader.optional_timestamp(kLeaseUntil)),
      .processed_at = optional_micros(reader.optional_timestamp(kProcessedAt)),
      .last_error = last_error ? std::optional<std::string_view>(*last_error) : std::nullopt,
      .next_attempt_at = optional_micros(reader.optional_timestamp(kNextAttemptAt))};
  return kit::claim_entry(stored, store);
}

}  // namespace docket::firestore::detail::claim
