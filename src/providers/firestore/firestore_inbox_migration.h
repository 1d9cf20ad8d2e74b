// The online re-key of Firestore inbox entries from the legacy '_'-joined id
// (docket/stores/inbox_id_migration.h), over the transactional inbox's dedup collection and
// the claim inbox's collection of the URL: every document is read (pages by id); one
// whose id is legacy moves to its current id by one commit of two writes, the create
// of the new id (exists: false) and the delete of the old (unchanged since read), so
// each entry moves whole or not at all. A refused commit is read back and reported:
// the new id taken (an entry written since the inbox was quiesced) or the old entry
// changed; both are left as they are.
//
// A moved entry is indistinguishable from one docket wrote: it gains the tenant its
// legacy id held (the `tenant` field, by which the inbox's administration selects a
// tenant's entries) and a nullValue for each nullable field it lacks; every field of
// its own is kept. An entry docket could not read once moved (a field docket writes on
// every entry missing or of another kind, a claim entry its reader refuses) or whose
// own tenant field names another tenant than its id is refused and left as it is.
//
// Thread-safety: a free function; it opens its own client.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_MIGRATION_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_MIGRATION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "docket/stores/inbox_id_migration.h"
#include "docket/stores/legacy_scan.h"
#include "providers/firestore/firestore_client.h"

namespace docket::firestore::detail {

// The provider's ProviderRegistration::migrate_inbox_ids. Throws ConfigurationError for
// a URL parse_store_url refuses, and what the reads and commits throw.
InboxIdMigration migrate_legacy_inbox_ids(std::string_view url,
                                          const InboxIdMigrationOptions& options);

// The inbox collections of `client`'s URL: the transactional inbox's and the claim
// inbox's.
std::vector<std::string> inbox_collections(const Client& client);

// Every entry of `collection` not under its current id (a legacy id, or one on neither
// shape), for `docket migrate scan`; reads every document, writes nothing.
LegacyKeyPlace scan_legacy_inbox_ids(const Client& client, const std::string& collection,
                                     std::size_t max_examples);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_MIGRATION_H_
