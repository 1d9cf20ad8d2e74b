// The Cosmos DB provider's registration (providers/registry.h): cosmos://HOST:PORT with
// ?database=, &key= (the master key), an optional &prefix= and, for a test server on this
// machine, &tls=off (cosmos_url.h). It offers, so far, the transactional inbox (handlers
// write through docket::cosmos::Transaction), the claim inbox, the checkpoint store and
// the outbox, staged in the same batch, the event, snapshot and saga stores (each
// committing on its own), their legacy-key scan and the tenant re-key of their legacy
// items (docs/cosmos.md lists what is to
// come). Stores opened on one URL share its database and containers.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/provider.h"
#include "providers/cosmos/cosmos_checkpoint_store.h"
#include "providers/cosmos/cosmos_claim_inbox_store.h"
#include "providers/cosmos/cosmos_event_store.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_legacy_guard.h"
#include "providers/cosmos/cosmos_outbox_store.h"
#include "providers/cosmos/cosmos_saga_store.h"
#include "providers/cosmos/cosmos_snapshot_store.h"
#include "providers/cosmos/cosmos_tenant_rekey.h"
#include "providers/cosmos/cosmos_url.h"
#include "providers/registry.h"

namespace docket::cosmos {
namespace detail {
namespace {

constexpr std::array<std::string_view, 1> kCosmosSchemes = {"cosmos"};

// What parse_store_url would refuse, worded to follow "<store> URL '<url>'".
std::optional<std::string> cosmos_url_problem(std::string_view url) {
  if (std::optional<std::string> problem = store_url_problem(url)) {
    return "is refused: " + *problem;
  }
  return std::nullopt;
}

std::unique_ptr<ClaimInboxStore> open_cosmos_claim_inbox(std::string_view url, const Clock& clock) {
  return std::make_unique<CosmosClaimInboxStore>(url, clock);
}

}  // namespace
}  // namespace detail

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration cosmos{
      .name = "cosmos",
      .schemes = detail::kCosmosSchemes,
      .url_forms = detail::kUrlForms,
      .key_shape = keys::Provider::kCosmosDb,
      .process_local = false,
      .url_problem = detail::cosmos_url_problem,
      // Its URLs carry the master key (key=): never printed.
      .printable_url = detail::printable_url,
      .inbox = detail::open_inbox_store,
      .checkpoint = detail::open_checkpoint_store,
      .outbox = detail::open_outbox_store,
      .event = detail::open_event_store,
      .snapshot = detail::open_snapshot_store,
      .saga = detail::open_saga_store,
      .claim_inbox = detail::open_cosmos_claim_inbox,
      .legacy_scan = detail::scan_legacy_containers,
      .rekey_tenant = detail::rekey_legacy_containers,
  };
  return cosmos;
}

}  // namespace docket::cosmos
