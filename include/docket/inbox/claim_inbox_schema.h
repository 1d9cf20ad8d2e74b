// Names of what the claim inbox stores, identical on every relational provider.
// docs/claim-inbox.md describes the entry.
//
//   docket_claim_inbox  one row per (tenant, message_id, handler_type)
//
// Thread-safety: constants.
#ifndef DOCKET_INBOX_CLAIM_INBOX_SCHEMA_H_
#define DOCKET_INBOX_CLAIM_INBOX_SCHEMA_H_

#include <cstdint>
#include <string_view>

namespace docket {

inline constexpr std::string_view kClaimInboxTable = "docket_claim_inbox";

// The component name of the claim inbox's row in docket_schema_version, and the version
// of the schema this release writes. A store refuses a database whose version is newer.
inline constexpr std::string_view kClaimInboxSchemaComponent = "claim_inbox";
// Version 2 adds the claim id (the claim's fencing token).
inline constexpr std::int64_t kClaimInboxSchemaVersion = 2;

}  // namespace docket

#endif  // DOCKET_INBOX_CLAIM_INBOX_SCHEMA_H_
