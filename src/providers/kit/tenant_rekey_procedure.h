// The tenant re-key procedure of docket/stores/tenant_rekey.h over any provider's
// TenantRekeyTarget (tenant_rekey_target.h): the tenant's checks, the export and split
// of every legacy record (all refusals listed before anything is written), and the
// moves, stream by stream in version order and then saga by saga, each batch one
// atomic write within the target's limits, resumable as the header describes. The
// verification through the stores is the caller's (providers/tenant_rekey.cc), from
// the report's lists.
//
// Thread-safety: a free function.
#ifndef DOCKET_PROVIDERS_KIT_TENANT_REKEY_PROCEDURE_H_
#define DOCKET_PROVIDERS_KIT_TENANT_REKEY_PROCEDURE_H_

#include "docket/stores/tenant_rekey.h"
#include "providers/kit/tenant_rekey_target.h"

namespace docket::kit {

// Runs the procedure on `target`; the report's verification counts stay 0.
TenantRekeyReport run_tenant_rekey(const TenantRekeyTarget& target,
                                   const TenantRekeyOptions& options);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_TENANT_REKEY_PROCEDURE_H_
