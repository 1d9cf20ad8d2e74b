// Rows of docket_claim_inbox turned back into the SPI's values: entries (selected as
// claim_sql::kClaimColumns), a claim's outcome (claim_sql::kTryClaim) and the counts
// (claim_sql::kCounts). Reads either result format. This file maps a Result's row to
// the kit's StoredClaimEntry; the kit (providers/kit/claim_row.h) checks and converts,
// refusing with an InfrastructureError a stored value the SPI cannot hold.
//
// Thread-safety: pure functions of their Result.
#ifndef DOCKET_PROVIDERS_POSTGRES_CLAIM_ROWS_H_
#define DOCKET_PROVIDERS_POSTGRES_CLAIM_ROWS_H_

#include <optional>
#include <vector>

#include "docket/inbox/claim_inbox_store.h"
#include "providers/postgres/postgres_result.h"

namespace docket::postgres::detail {

std::vector<ClaimEntry> claim_entries(const Result& result);

// The one row of kTryClaim; nullopt when it returned none (see claim_sql.h: run it again).
std::optional<ClaimResult> claim_result(const Result& result);
// The same read from row `row`, its four columns starting at column `first`
// (kTryClaimBatch's rows).
std::optional<ClaimResult> claim_result_at(const Result& result, int row, int first);

ClaimCounts claim_counts(const Result& result);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_CLAIM_ROWS_H_
