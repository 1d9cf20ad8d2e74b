// A docket_claim_inbox row turned back into the claim inbox's values, once for every
// provider that stores entries as rows: the provider views its native row's columns as
// a StoredClaimEntry (no copy) and the kit checks and converts them.
//
// A stored value the SPI cannot hold (an unknown status, a retry count out of range, a
// key term that no longer validates) is an InfrastructureError naming the store, the
// value and what to do: the row was written by something other than docket.
//
// Internal to docket. Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_CLAIM_ROW_H_
#define DOCKET_PROVIDERS_KIT_CLAIM_ROW_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::kit {

// The columns of an entry, in the order every provider's statements select them.
enum ClaimColumn : int {
  kClaimTenant,
  kClaimMessageId,
  kClaimHandlerType,
  kClaimStatus,
  kClaimRetryCount,
  kClaimReceivedAt,
  kClaimUpdatedAt,
  kClaimOwner,
  kClaimClaimId,
  kClaimLeaseUntil,
  kClaimProcessedAt,
  kClaimLastError,
  kClaimNextAttemptAt,
};

// One entry's stored values, viewed in the provider's row (valid while the row is);
// times are Unix microseconds (time_codec.h), nullopt for NULL.
struct StoredClaimEntry {
  std::string_view tenant{};
  std::string_view message_id{};
  std::string_view handler_type{};
  std::string_view status{};
  std::int64_t retry_count = 0;
  std::int64_t received_at = 0;
  std::int64_t updated_at = 0;
  std::optional<std::string_view> owner{};
  std::optional<std::string_view> claim_id{};
  std::optional<std::int64_t> lease_until{};
  std::optional<std::int64_t> processed_at{};
  std::optional<std::string_view> last_error{};
  std::optional<std::int64_t> next_attempt_at{};
};

// `store` names the store in errors: "SQLite claim inbox".
ClaimEntry claim_entry(const StoredClaimEntry& stored, std::string_view store);
ClaimStatus claim_status(std::string_view stored, std::string_view store);

// Adds one entry to `counts` (a store that counts entries one by one rather than in its
// query): its status, whether it is pending since before the oldest so far, and, for a
// failed entry, `failed_due` (its next attempt is due).
void count_claim_entry(ClaimCounts& counts, ClaimStatus status, Timestamp received_at,
                       bool failed_due);
std::uint32_t claim_retry_count(std::int64_t stored, std::string_view store);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_CLAIM_ROW_H_
