// Statements whose unique violations surface as the inbox's UniqueViolationError, the
// error every provider raises for a duplicate key (docket/inbox/inbox_errors.h), so that the
// dispatcher can tell a duplicate delivery from a handler's own violation.
//
// Thread-safety: as the Connection's (one thread at a time per connection).
#ifndef DOCKET_PROVIDERS_POSTGRES_UNIQUE_VIOLATION_H_
#define DOCKET_PROVIDERS_POSTGRES_UNIQUE_VIOLATION_H_

#include <span>
#include <string_view>

#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_param.h"
#include "providers/postgres/postgres_result.h"
#include "providers/postgres/postgres_transaction_block.h"

namespace docket::postgres::detail {

// Throws UniqueViolationError (naming the table) for SQLSTATE 23505, else the
// PostgresError exec.h's throw_failure throws; same message either way.
[[noreturn]] void throw_mapped_failure(const Connection& conn, const Result& result,
                                       std::string_view statement);

// try_exec_cached / try_exec_prepared (exec.h) with failures thrown, unique violations
// mapped as above.
Result exec_mapped(Connection& conn, std::string_view sql, std::span<const Param> params);
Result exec_prepared_mapped(Connection& conn, std::string_view name, std::string_view sql,
                            std::span<const Param> params);

// Commits `tx`; a unique violation at commit (a deferred constraint) becomes
// UniqueViolationError with the same message.
void commit_mapped(TransactionBlock& tx);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_UNIQUE_VIOLATION_H_
