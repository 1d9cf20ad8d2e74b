// The SQLite provider's registration (providers/registry.h): sqlite:///path/to/file.db
// and sqlite::memory:. Stores opened on one file share its database.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "docket/sqlite/checkpoint_store.h"
#include "docket/sqlite/claim_inbox_store.h"
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/snapshot_store.h"
#include "docket/sqlite/store.h"
#include "providers/registry.h"
#include "providers/sqlite/sqlite_url.h"

namespace docket::sqlite {
namespace {

constexpr std::array<std::string_view, 1> kSchemes = {"sqlite"};

std::optional<std::string> url_problem(std::string_view url) {
  if (detail::path_of_url(url).empty()) {
    return "names no SQLite database";
  }
  return std::nullopt;
}

// Each factory opens the store on the file the URL names, with default options.
template <class Store, std::unique_ptr<Store> (*open)(StoreOptions, const Clock&)>
std::unique_ptr<Store> on_url(std::string_view url, const Clock& clock) {
  return open(StoreOptions{.path = detail::path_of_url(url)}, clock);
}

}  // namespace

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration sqlite{
      .name = "sqlite",
      .schemes = kSchemes,
      .url_forms = "sqlite:///path/to/file.db, sqlite::memory:",
      .key_shape = std::nullopt,
      .process_local = false,
      .url_problem = url_problem,
      .printable_url = nullptr,
      .inbox = on_url<InboxStore, open_store>,
      .checkpoint = on_url<CheckpointStore, open_checkpoint_store>,
      .outbox = on_url<OutboxStore, open_outbox_store>,
      .event = on_url<EventStore, open_event_store>,
      .snapshot = on_url<SnapshotStore, open_snapshot_store>,
      .saga = on_url<SagaStore, open_saga_store>,
      .claim_inbox = on_url<ClaimInboxStore, open_claim_inbox_store>,
  };
  return sqlite;
}

}  // namespace docket::sqlite
