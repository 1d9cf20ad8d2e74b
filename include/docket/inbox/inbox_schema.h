// Names of what the inbox stores, identical on every relational provider and used as
// the memory provider's table names. docs/inbox.md lists the columns.
//
//   docket_schema_version       (component PK, version)
//   docket_inbox_messages       one row per processed (tenant, consumer_id, message_id)
//   docket_consumer_checkpoints one row per (tenant, consumer_id): the resume position
//
// Thread-safety: constants.
#ifndef DOCKET_INBOX_INBOX_SCHEMA_H_
#define DOCKET_INBOX_INBOX_SCHEMA_H_

#include <cstdint>
#include <string_view>

namespace docket {

inline constexpr std::string_view kSchemaVersionTable = "docket_schema_version";
inline constexpr std::string_view kInboxMessagesTable = "docket_inbox_messages";
inline constexpr std::string_view kConsumerCheckpointsTable = "docket_consumer_checkpoints";

// The component name of the inbox's row in docket_schema_version, and the version of
// the schema this release writes. A store refuses a database whose version is newer.
inline constexpr std::string_view kInboxSchemaComponent = "inbox";
inline constexpr std::int64_t kInboxSchemaVersion = 1;

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_SCHEMA_H_
