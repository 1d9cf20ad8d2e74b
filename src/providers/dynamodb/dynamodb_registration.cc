// The DynamoDB provider's registration (providers/registry.h): dynamodb://HOST:PORT
// (DynamoDB Local, or any server of one's own) and dynamodb://aws (the AWS service),
// with ?region= and an optional &table_prefix= (dynamodb_url.h). It offers the
// transactional inbox, the claim inbox, the checkpoint store, the event store, the
// snapshot store and the saga store; the registry refuses its other stores, naming
// the providers that offer them. Stores opened on one URL share its tables.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_checkpoint_store.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_event_store.h"
#include "providers/dynamodb/dynamodb_inbox_store.h"
#include "providers/dynamodb/dynamodb_legacy_guard.h"
#include "providers/dynamodb/dynamodb_outbox_store.h"
#include "providers/dynamodb/dynamodb_saga_store.h"
#include "providers/dynamodb/dynamodb_snapshot_store.h"
#include "providers/dynamodb/dynamodb_tenant_rekey.h"
#include "providers/dynamodb/dynamodb_url.h"
#include "providers/registry.h"

namespace docket::dynamodb {
namespace detail {
namespace {

constexpr std::array<std::string_view, 1> kSchemes = {"dynamodb"};

// What parse_store_url would refuse, worded to follow "<store> URL '<url>'".
std::optional<std::string> url_problem(std::string_view url) {
  if (std::optional<std::string> problem = store_url_problem(url)) {
    return "is refused: " + *problem;
  }
  return std::nullopt;
}

std::unique_ptr<ClaimInboxStore> open_claim_inbox(std::string_view url, const Clock& clock) {
  return std::make_unique<DynamoDbClaimInboxStore>(url, clock);
}

}  // namespace
}  // namespace detail

const providers::ProviderRegistration& registration() {
  static const providers::ProviderRegistration dynamodb{
      .name = "dynamodb",
      .schemes = detail::kSchemes,
      .url_forms = detail::kUrlForms,
      .key_shape = keys::Provider::kDynamoDb,
      .process_local = false,
      .url_problem = detail::url_problem,
      // Its URLs carry no credentials (user info and unknown parameters are refused),
      // but a refused URL is printed: one with a key or token never echoes it.
      .printable_url = detail::printable_url,
      .inbox = detail::open_inbox_store,
      .checkpoint = detail::open_checkpoint_store,
      .outbox = detail::open_outbox_store,
      .event = detail::open_event_store,
      .snapshot = detail::open_snapshot_store,
      .saga = detail::open_saga_store,
      .claim_inbox = detail::open_claim_inbox,
      .legacy_scan = detail::scan_legacy_tables,
      .rekey_tenant = detail::rekey_legacy_tables,
  };
  return dynamodb;
}

}  // namespace docket::dynamodb
