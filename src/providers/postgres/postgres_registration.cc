// The PostgreSQL provider's registration (providers/registry.h): postgresql:// and
// postgres:// URLs, each the libpq connection string itself. Stores opened on one URL
// share its database and search_path.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/url_credentials.h"
#include "docket/core/error.h"
#include "docket/postgres/checkpoint_store.h"
#include "docket/postgres/claim_inbox_store.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/snapshot_store.h"
#include "docket/postgres/store.h"
#include "providers/postgres/postgres_conninfo.h"
#include "providers/registry.h"

namespace docket::postgres {
namespace {

constexpr std::array<std::string_view, 2> kSchemes = {"postgresql", "postgres"};

// Each factory opens the store with the URL as its connection string and default
// options; the URL has passed url_problem, so libpq parses it.
template <class Store, std::unique_ptr<Store> (*open)(StoreOptions, const Clock&)>
std::unique_ptr<Store> on_url(std::string_view url, const Clock& clock) {
  return open(StoreOptions{.conninfo = std::string(url)}, clock);
}

// Why libpq cannot parse `url` as a connection string (password redacted), so that the
// registry refuses it before any store is opened; nullopt when it parses.
std::optional<std::string> url_problem(std::string_view url) {
  try {
    detail::parse_conninfo(url);
  } catch (const ConfigurationError& error) {
    return std::string("is refused: ") + error.what();
  }
  return std::nullopt;
}

}  // namespace

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration postgres{
      .name = "postgres",
      .schemes = kSchemes,
      .url_forms = "postgresql://user@host:port/db",
      .key_shape = std::nullopt,
      .process_local = false,
      .url_problem = url_problem,
      .printable_url = [](std::string_view url) { return core::mask_url_credentials(url); },
      .inbox = on_url<InboxStore, open_store>,
      .checkpoint = on_url<CheckpointStore, open_checkpoint_store>,
      .outbox = on_url<OutboxStore, open_outbox_store>,
      .event = on_url<EventStore, open_event_store>,
      .snapshot = on_url<SnapshotStore, open_snapshot_store>,
      .saga = on_url<SagaStore, open_saga_store>,
      .claim_inbox = on_url<ClaimInboxStore, open_claim_inbox_store>,
  };
  return postgres;
}

}  // namespace docket::postgres
