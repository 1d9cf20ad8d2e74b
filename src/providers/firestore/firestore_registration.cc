// The Firestore provider's registration (providers/registry.h): firestore://HOST:PORT
// (the Cloud Firestore emulator, or any server of one's own) and firestore://googleapis
// (the Cloud Firestore service), with ?project=, an optional &database= and an optional
// &prefix= (firestore_url.h). It offers the transactional inbox, the outbox, the claim
// inbox, the checkpoint store and the event, snapshot and saga stores.
// Stores opened on one URL share its collections.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/provider.h"
#include "providers/firestore/firestore_checkpoint_store.h"
#include "providers/firestore/firestore_claim_inbox_store.h"
#include "providers/firestore/firestore_event_store.h"
#include "providers/firestore/firestore_inbox_migration.h"
#include "providers/firestore/firestore_inbox_store.h"
#include "providers/firestore/firestore_legacy_guard.h"
#include "providers/firestore/firestore_outbox_store.h"
#include "providers/firestore/firestore_saga_store.h"
#include "providers/firestore/firestore_snapshot_store.h"
#include "providers/firestore/firestore_tenant_rekey.h"
#include "providers/firestore/firestore_url.h"
#include "providers/registry.h"

namespace docket::firestore {
namespace detail {
namespace {

constexpr std::array<std::string_view, 1> kFirestoreSchemes = {"firestore"};

// What parse_store_url would refuse, worded to follow "<store> URL '<url>'".
std::optional<std::string> firestore_url_problem(std::string_view url) {
  if (std::optional<std::string> problem = store_url_problem(url)) {
    return "is refused: " + *problem;
  }
  return std::nullopt;
}

std::unique_ptr<ClaimInboxStore> open_firestore_claim_inbox(std::string_view url,
                                                            const Clock& clock) {
  return std::make_unique<FirestoreClaimInboxStore>(url, clock);
}

}  // namespace
}  // namespace detail

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration firestore{
      .name = "firestore",
      .schemes = detail::kFirestoreSchemes,
      .url_forms = detail::kUrlForms,
      .key_shape = keys::Provider::kFirestore,
      .process_local = false,
      .url_problem = detail::firestore_url_problem,
      // Its URLs carry no credentials (user info and unknown parameters are refused),
      // but a refused URL is printed: one with a key or token never echoes it.
      .printable_url = detail::printable_url,
      .inbox = detail::open_inbox_store,
      .checkpoint = detail::open_checkpoint_store,
      .outbox = detail::open_outbox_store,
      .event = detail::open_event_store,
      .snapshot = detail::open_snapshot_store,
      .saga = detail::open_saga_store,
      .claim_inbox = detail::open_firestore_claim_inbox,
      .legacy_scan = detail::scan_legacy_collections,
      .migrate_inbox_ids = detail::migrate_legacy_inbox_ids,
      .rekey_tenant = detail::rekey_legacy_collections,
  };
  return firestore;
}

}  // namespace docket::firestore
