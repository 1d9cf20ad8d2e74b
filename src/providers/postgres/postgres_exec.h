// Running statements on a Connection: ad hoc (PQexecParams), prepared once per
// connection and then executed by name (PQprepare + PQexecPrepared, the hot path), and
// multi-statement scripts without parameters (schema migrations).
//
// Parameters are Params or anything to_param accepts (param.h): strings, integers,
// bools, byte spans, optionals, std::nullopt:
//   exec(conn, "INSERT INTO t (id, body) VALUES ($1, $2)", id, std::optional<std::string_view>{});
//   exec_prepared(conn, "inbox_insert", kInsertSql, tenant, consumer, message_id);
//
// exec* throw PostgresError (an InfrastructureError) when the statement fails; its
// sqlstate() tells a unique violation (23505) or a serialization failure / deadlock
// (40001 / 40P01) from the rest. try_exec* return the failed Result instead, for callers
// that expect a failure as an outcome. Both throw InvalidInputError for misuse (a
// prepared statement name reused with another SQL text or other parameter types).
//
// Prepared statements: the first exec_prepared of a name on a connection prepares `sql`
// with the parameter types of that call; later calls execute by name. Pass the same
// SQL text and the same parameter types every time (a NULL of the right type:
// std::optional<T>{}, not std::nullopt, whose type is inferred at preparation).
//
// Thread-safety: as the Connection's (one thread at a time per connection).
#ifndef DOCKET_PROVIDERS_POSTGRES_EXEC_H_
#define DOCKET_PROVIDERS_POSTGRES_EXEC_H_

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_error.h"
#include "providers/postgres/postgres_param.h"
#include "providers/postgres/postgres_result.h"

namespace docket::postgres::detail {

Result exec(Connection& conn, std::string_view sql, std::span<const Param> params);
Result try_exec(Connection& conn, std::string_view sql, std::span<const Param> params);
Result exec_prepared(Connection& conn, std::string_view name, std::string_view sql,
                     std::span<const Param> params);
Result try_exec_prepared(Connection& conn, std::string_view name, std::string_view sql,
                         std::span<const Param> params);
// exec_prepared with every result column in binary format (Result reads it): for hot
// reads, which then neither print nor parse integers and move bytea as its bytes.
Result exec_prepared_binary(Connection& conn, std::string_view name, std::string_view sql,
                            std::span<const Param> params);
Result try_exec_prepared_binary(Connection& conn, std::string_view name, std::string_view sql,
                                std::span<const Param> params);

// Most statements one connection keeps prepared, docket's own included; try_exec_cached
// runs further distinct statements unprepared, so SQL composed on the fly cannot grow a session
// without bound.
inline constexpr std::size_t kMaxCachedStatements = 512;

// Runs `sql` prepared under a name derived from its text and parameter types, preparing
// it on first use on this connection: for statements a caller repeats without naming
// them (a handler's statements through docket::postgres::Transaction). Past
// kMaxCachedStatements, or on a name collision, it runs unprepared (try_exec). Returns
// the failed Result like try_exec.
Result try_exec_cached(Connection& conn, std::string_view sql, std::span<const Param> params);

// Sends `sql` without waiting for its result (libpq's PQsend*, inside a pipeline:
// flight.h), prepared under `name` as exec_prepared runs it, or with an empty `name` as
// try_exec_cached runs it. When it is to be prepared first, the preparation is sent
// ahead of it and returned: its result comes first, and the caller remembers the
// statement on the connection once that result is OK. Throws PostgresError when libpq
// cannot queue it, InvalidInputError for a name prepared with another statement.
std::optional<PreparedStatement> send_prepared(Connection& conn, std::string_view name,
                                               std::string_view sql, std::span<const Param> params);

// Runs one or more `;`-separated statements with no parameters (simple query protocol;
// outside an explicit transaction they run in one implicit transaction). Throws
// PostgresError on the first failing statement.
void exec_script(Connection& conn, std::string_view sql);

// Throws the PostgresError describing `result`, a failure of `statement` on `conn`.
[[noreturn]] void throw_failure(const Connection& conn, const Result& result,
                                std::string_view statement);

template <Bindable... Args>
Result exec(Connection& conn, std::string_view sql, const Args&... args) {
  const std::array<Param, sizeof...(Args)> params{to_param(args)...};
  return exec(conn, sql, std::span<const Param>(params));
}

template <Bindable... Args>
Result try_exec(Connection& conn, std::string_view sql, const Args&... args) {
  const std::array<Param, sizeof...(Args)> params{to_param(args)...};
  return try_exec(conn, sql, std::span<const Param>(params));
}

template <Bindable... Args>
Result exec_prepared(Connection& conn, std::string_view name, std::string_view sql,
                     const Args&... args) {
  const std::array<Param, sizeof...(Args)> params{to_param(args)...};
  return exec_prepared(conn, name, sql, std::span<const Param>(params));
}

template <Bindable... Args>
Result exec_prepared_binary(Connection& conn, std::string_view name, std::string_view sql,
                            const Args&... args) {
  const std::array<Param, sizeof...(Args)> params{to_param(args)...};
  return exec_prepared_binary(conn, name, sql, std::span<const Param>(params));
}

template <Bindable... Args>
Result try_exec_prepared(Connection& conn, std::string_view name, std::string_view sql,
                         const Args&... args) {
  const std::array<Param, sizeof...(Args)> params{to_param(args)...};
  return try_exec_prepared(conn, name, sql, std::span<const Param>(params));
}

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_EXEC_H_
