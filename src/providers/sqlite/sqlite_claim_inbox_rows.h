// docket_claim_inbox rows turned back into the claim inbox's values, read in place
// from SQLite's row (RowView), with no Row in between: this file maps SQLite's row to
// the kit's StoredClaimEntry; the kit (providers/kit/claim_row.h) checks and converts.
//
// Thread-safety: belongs to the thread holding the connection.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_ROWS_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_ROWS_H_

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "docket/inbox/claim_inbox_store.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

// The store's name in the kit's errors.
inline constexpr std::string_view kClaimInboxStore = "SQLite claim inbox";

// A row selected with DOCKET_CLAIM_COLUMNS (sqlite_claim_inbox_sql.h). Throws
// InfrastructureError for a row docket could not have written.
ClaimEntry claim_entry(const RowView& row);

// Runs `sql` (selecting DOCKET_CLAIM_COLUMNS) and returns its entries; `expected` is
// how many it may return at most (room for a few of them is made up front).
std::vector<ClaimEntry> claim_entries(Connection& connection, std::string_view sql,
                                      std::span<const ParamView> params, std::size_t expected);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_ROWS_H_
