// The tenant re-key procedure of docket/stores/tenant_rekey.h over any provider's
// TenantRekeyTarget (tenant_rekey_target.h): the tenant's checks, the export and split
// of every legacy record (all refusals listed before anything is written), the
// marker (tenant_rekey_marker.h) written, the moves, stream by stream in version order
// and then saga by saga, each batch one write (TenantRekeyTarget::commit) within the
// target's limits, resumable as the header describes; then the verification through
// the target's stores of every stream and saga under the tenant (those this run
// exported also against the export), and last the marker removed. A run that finds
// another tenant's marker is refused before writing; one that finds its own tenant's
// resumes the run that wrote it. A run with nothing to move and no marker writes
// nothing and verifies nothing.
//
// Thread-safety: a free function.
#ifndef DOCKET_PROVIDERS_KIT_TENANT_REKEY_PROCEDURE_H_
#define DOCKET_PROVIDERS_KIT_TENANT_REKEY_PROCEDURE_H_

#include "docket/stores/tenant_rekey.h"
#include "providers/kit/tenant_rekey_target.h"

namespace docket::kit {

// Runs the procedure on `target`. Throws what the header of tenant_rekey.h says, and
// InvalidInputError when another tenant's re-key left its marker.
TenantRekeyReport run_tenant_rekey(const TenantRekeyTarget& target,
                                   const TenantRekeyOptions& options);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_TENANT_REKEY_PROCEDURE_H_
