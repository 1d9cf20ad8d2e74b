#include "docket/stores/inbox_id_migration.h"

#include <string>

#include "docket/core/error.h"
#include "providers/registry.h"

namespace docket {

InboxIdMigration migrate_inbox_ids(std::string_view url, const InboxIdMigrationOptions& options) {
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "inbox id migration");
  if (provider.migrate_inbox_ids == nullptr) {
    throw ConfigurationError(
        "the " + std::string(provider.name) +
        " provider never stored inbox entries under the legacy '_'-joined id (Firestore and "
        "Elasticsearch did): there is nothing to re-key. For an export of Elasticsearch "
        "entries, use `docket migrate inbox-ids --provider elasticsearch` offline");
  }
  return provider.migrate_inbox_ids(url, options);
}

}  // namespace docket
