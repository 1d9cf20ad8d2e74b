// The tenant re-key on DynamoDB (docket/stores/tenant_rekey.h): the kit's procedure
// (kit/tenant_rekey_procedure.h) over the event and saga tables of a URL.
//
//   legacy records   a Scan of each table filtered to keys outside the tenanted prefix
//                    ("t:", "SAGA#t:"), confirmed by keys::is_legacy_untenanted_*_key:
//                    the guard's filter, every page, whole items (ConsistentRead)
//   known tenant     a Scan filtered to the tenant's key prefix (keys/tenant_prefix.h),
//                    paged until one item is found
//   new items        the legacy item with its key attributes replaced; a saga gains its
//                    tenant attribute, and, once completed, its shard (from the new key,
//                    as the saga store writes it): nothing else changes
//   one atomic write one TransactWriteItems of at most 100 actions (50 moves) and under
//                    its 4 MB: a Put conditional on attribute_not_exists per new item,
//                    and a Delete per old one conditional on it being unchanged (the
//                    event id of an event, the version of a saga)
//
// Thread-safety: a free function; it opens its own client.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TENANT_REKEY_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TENANT_REKEY_H_

#include <string_view>

#include "docket/stores/tenant_rekey.h"

namespace docket::dynamodb::detail {

// The provider's ProviderRegistration::rekey_tenant. Throws ConfigurationError for a
// URL parse_store_url refuses, and what the procedure throws.
TenantRekeyReport rekey_legacy_tables(std::string_view url, const TenantRekeyOptions& options);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TENANT_REKEY_H_
