#include "providers/dynamodb/dynamodb_claim_item.h"

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/kit/claim_row.h"

namespace docket::dynamodb::detail::claim {

ClaimEntry claim_entry_of(const nlohmann::json& item, std::string_view store) {
  const ItemReader read(item, store);
  // claim_id is absent on an entry claimed before claim ids existed (read as none), as
  // on every entry not processing.
  return kit::claim_entry(
      kit::StoredClaimEntry{.tenant = read.string(kTenant),
                            .message_id = read.string(kMessageId),
                            .handler_type = read.string(kHandlerType),
                            .status = read.string(kStatus),
                            .retry_count = read.number(kRetryCount),
                            .received_at = read.number(kReceivedAt),
                            .updated_at = read.number(kUpdatedAt),
                            .owner = read.optional_string(kOwner),
                            .claim_id = read.optional_string(kClaimId),
                            .lease_until = read.optional_number(kLeaseUntil),
                            .processed_at = read.optional_number(kProcessedAt),
                            .last_error = read.optional_string(kLastError),
                            .next_attempt_at = read.optional_number(kNextAttemptAt)},
      store);
}

}  // namespace docket::dynamodb::detail::claim
