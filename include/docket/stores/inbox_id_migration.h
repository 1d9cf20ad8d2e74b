// migrate_inbox_ids: the re-key of inbox entries stored under the legacy '_'-joined id
// {tenant}_{messageId}_{handlerType} to the id docket writes (docket/keys/inbox_key.h),
// online, on a store that can hold them (Firestore; `docket migrate inbox-ids --store`,
// docs/migrations.md). Run it with the inbox quiesced: an entry written meanwhile is
// left alone and reported.
//
// Each legacy entry is re-keyed by ONE atomic commit that creates the entry under its
// new id (which must be free) and deletes the old one (which must be unchanged since it
// was read), so an interrupted run leaves every entry either moved or untouched, and a
// second run finishes what the first left: resumable by construction. The tenant is
// recovered from each entry's own messageId and handlerType fields
// (keys::rekey_inbox_entry_id), never guessed; an entry on neither shape is refused,
// listed, and left as it is.
//
// Thread-safety: a free function; it opens its own connection.
#ifndef DOCKET_STORES_INBOX_ID_MIGRATION_H_
#define DOCKET_STORES_INBOX_ID_MIGRATION_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace docket {

struct InboxIdMigrationOptions {
  bool dry_run = false;  // read and classify only; write nothing
  // Called after each page of entries read, with how many were examined so far.
  std::function<void(std::uint64_t examined)> on_progress{};
};

// An entry left as it was, and why.
struct InboxIdRefusal {
  std::string where;  // "Firestore collection 'app_docket_inbox_messages'"
  std::string id;     // its stored id
  std::string reason;
};

struct InboxIdMigration {
  std::uint64_t examined = 0;  // entries read
  std::uint64_t rekeyed = 0;   // moved to their current id (dry run: would be)
  std::uint64_t current = 0;   // already on their current id
  std::vector<InboxIdRefusal> refused;
};

// Re-keys every legacy inbox entry of the store `url` names. Throws ConfigurationError
// for a URL no provider of this build opens, or whose provider never stored legacy
// inbox ids, and what the reads and writes throw (each entry moved so far stays moved).
InboxIdMigration migrate_inbox_ids(std::string_view url,
                                   const InboxIdMigrationOptions& options = {});

}  // namespace docket

#endif  // DOCKET_STORES_INBOX_ID_MIGRATION_H_
