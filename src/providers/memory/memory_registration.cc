// The memory provider's registration (providers/registry.h): the URL `memory:`, every
// store on a database of its own per URL factory call.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "docket/memory/checkpoint_store.h"
#include "docket/memory/claim_inbox_store.h"
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/snapshot_store.h"
#include "docket/memory/store.h"
#include "providers/registry.h"

namespace docket::memory {
namespace {

constexpr std::array<std::string_view, 1> kSchemes = {"memory"};

std::optional<std::string> url_problem(std::string_view url) {
  if (url != "memory:") {
    return "has text after 'memory:' (a memory database takes no name: each URL factory "
           "call opens one of its own)";
  }
  return std::nullopt;
}

// Each factory opens the store on a new database (url is "memory:").
template <class Store, std::unique_ptr<Store> (*open)(const Clock&)>
std::unique_ptr<Store> on_own_database(std::string_view, const Clock& clock) {
  return open(clock);
}

}  // namespace

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration memory{
      .name = "memory",
      .schemes = kSchemes,
      .url_forms = "memory:",
      .key_shape = std::nullopt,
      .process_local = true,
      .url_problem = url_problem,
      .printable_url = nullptr,
      .inbox = on_own_database<InboxStore, open_store>,
      .checkpoint = on_own_database<CheckpointStore, open_checkpoint_store>,
      .outbox = on_own_database<OutboxStore, open_outbox_store>,
      .event = on_own_database<EventStore, open_event_store>,
      .snapshot = on_own_database<SnapshotStore, open_snapshot_store>,
      .saga = on_own_database<SagaStore, open_saga_store>,
      .claim_inbox = on_own_database<ClaimInboxStore, open_claim_inbox_store>,
  };
  return memory;
}

}  // namespace docket::memory
