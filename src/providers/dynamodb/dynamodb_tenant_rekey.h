// The tenant re-key on DynamoDB (docket/stores/tenant_rekey.h): the kit's procedure
// (kit/tenant_rekey_procedure.h) over the event and saga tables of a URL.
//
//   legacy records   a Scan of each table filtered to keys outside the tenanted prefix
//                    ("t:", "SAGA#t:"), confirmed by keys::is_legacy_untenanted_*_key:
//                    the guard's filter, every page, whole items (ConsistentRead)
//   own tenant       the `tenant` attribute of a legacy event or saga item, where the
//                    release that wrote it kept one (the procedure refuses a record
//                    naming another tenant, and --only-named moves only those naming it)
//   known tenant     a Scan filtered to the tenant's key prefix (keys/tenant_prefix.h),
//                    paged until one item is found
//   new items        the legacy item with its key attributes replaced; a saga gains its
//                    tenant attribute, and, once completed, its shard (from the new key,
//                    as the saga store writes it): nothing else changes
//   marker          an item of a table of its own (below), written before the first
//                    move and removed after the verification
//   one atomic write one TransactWriteItems of at most 100 actions (50 moves) and under
//                    its 4 MB: a Put conditional on attribute_not_exists per new item,
//                    and a Delete per old one conditional on it being unchanged (the
//                    event id of an event, the version of a saga)
//
// Thread-safety: a free function; it opens its own client.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TENANT_REKEY_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TENANT_REKEY_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/stores/tenant_rekey.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/kit/tenant_rekey_marker.h"

namespace docket::dynamodb::detail {

// The re-key's marker (kit/tenant_rekey_marker.h) on DynamoDB: one item, name
// "tenant-rekey", in the table {table_prefix}docket_tenant_rekey (partition key `name`,
// created by the first re-key that writes it), with its tenant, started_at (micros)
// and started_by. Read with one strongly consistent GetItem; a missing table holds none.
TableSchema rekey_marker_schema(const StoreUrl& url);
std::optional<kit::RekeyMarker> read_rekey_marker(const Client& client);

// The marker's probe an event or saga store runs before its first operation (once per
// instance, kit::RekeyMarkerOnce).
class RekeyMarkerProbe {
 public:
  // `store` names the store for the refusal.
  RekeyMarkerProbe(const Client& client, std::string store, kit::RekeyMarkerCheck check);

  // Throws LegacyDataError while a re-key's marker is in place.
  void check(const Client& client);
  int probes() const noexcept { return once_.probes(); }

 private:
  kit::RekeyMarkerOnce once_;
};

// The provider's ProviderRegistration::rekey_tenant. Throws ConfigurationError for a
// URL parse_store_url refuses, and what the procedure throws.
TenantRekeyReport rekey_legacy_tables(std::string_view url, const TenantRekeyOptions& options);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TENANT_REKEY_H_
