// The online re-key of Firestore inbox entries from the legacy '_'-joined id
// (docket/inbox_id_migration.h), over the transactional inbox's dedup collection and
// the claim inbox's collection of the URL: every document is read (pages by id); one
// whose id is legacy moves to its current id by one commit of two writes, the create
// of the new id (exists: false) and the delete of the old (unchanged since read), so
// each entry moves whole or not at all. A refused commit is read back and reported:
// the new id taken (an entry written since the inbox was quiesced) or the old entry
// changed; both are left as they are.
//
// Thread-safety: a free function; it opens its own client.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_MIGRATION_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_MIGRATION_H_

#include <string_view>

#include "docket/inbox_id_migration.h"

namespace docket::firestore {

// The provider's ProviderRegistration::migrate_inbox_ids. Throws ConfigurationError for
// a URL parse_store_url refuses, and what the reads and commits throw.
InboxIdMigration migrate_legacy_inbox_ids(std::string_view url,
                                          const InboxIdMigrationOptions& options);

}  // namespace docket::firestore

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_MIGRATION_H_
