// The key prefix every stream or saga key of one tenant begins with, for finding
// whether a store holds anything under a tenant (`docket migrate tenant-rekey`'s check
// that a tenant is known) as one range of keys: [from, until).
//
//   streams   DynamoDB stream keys, Firestore event document ids   t:{tenant}:
//   sagas     DynamoDB saga partition keys                         SAGA#t:{tenant}:
//             Firestore saga document ids                          t:{tenant}:
//
// The tenant is percent-encoded as every key term is, and since an encoded tenant
// holds no ':', no other tenant's keys share the prefix. `until` is the prefix with
// its final ':' raised to ';', the first string past every key that begins with it.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_TENANT_PREFIX_H_
#define DOCKET_KEYS_TENANT_PREFIX_H_

#include <string>
#include <string_view>

#include "docket/keys/provider.h"

namespace docket::keys {

struct TenantKeyRange {
  std::string from;   // the prefix itself
  std::string until;  // the first key past the prefix's range
};

// Throws InvalidKeyTermError for a tenant no key may hold (empty, invalid UTF-8) and
// InvalidInputError for a provider without stream (saga) keys of this form.
TenantKeyRange stream_tenant_range(Provider provider, std::string_view tenant);
TenantKeyRange saga_tenant_range(Provider provider, std::string_view tenant);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_TENANT_PREFIX_H_
