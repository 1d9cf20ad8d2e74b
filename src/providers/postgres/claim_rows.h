// Rows of docket_claim_inbox turned back into the SPI's values: entries (selected as
// claim_sql::kClaimColumns), a claim's outcome (claim_sql::kTryClaim) and the counts
// (claim_sql::kCounts). Reads either result format.
//
// A stored value the SPI cannot hold (an unknown status, a tenant or key term that no
// longer validates, a negative count) is an InfrastructureError naming the entry: the
// table was written by something other than docket.
//
// Thread-safety: pure functions of their Result.
#ifndef DOCKET_PROVIDERS_POSTGRES_CLAIM_ROWS_H_
#define DOCKET_PROVIDERS_POSTGRES_CLAIM_ROWS_H_

#include <optional>
#include <vector>

#include "docket/claim_inbox_store.h"
#include "providers/postgres/result.h"

namespace docket::postgres {

std::vector<ClaimEntry> claim_entries(const Result& result);

// The one row of kTryClaim; nullopt when it returned none (see claim_sql.h: run it again).
std::optional<ClaimResult> claim_result(const Result& result);

ClaimCounts claim_counts(const Result& result);

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_CLAIM_ROWS_H_
