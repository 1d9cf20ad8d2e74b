#include "providers/postgres/postgres_exec.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/postgres/postgres_flight.h"
#include "providers/postgres/postgres_libpq_text.h"
#include "providers/postgres/postgres_round_trips.h"

namespace docket::postgres::detail {
namespace {

// libpq's parallel parameter arrays, on the stack for the usual few parameters.
class BoundParams {
 public:
  explicit BoundParams(std::span<const Param> params) : count_(params.size()) {
    if (count_ > kInline) {
      heap_types_.resize(count_);
      heap_values_.resize(count_);
      heap_lengths_.resize(count_);
      heap_formats_.resize(count_);
    }
    Oid* types = this->types();
    const char** values = this->values();
    int* lengths = this->lengths();
    int* formats = this->formats();
    for (std::size_t i = 0; i < count_; ++i) {
      types[i] = params[i].type();
      values[i] = params[i].data();
      lengths[i] = params[i].length();
      formats[i] = Param::kBinaryFormat;
    }
  }

  int count() const noexcept { return static_cast<int>(count_); }
  Oid* types() noexcept { return count_ > kInline ? heap_types_.data() : types_.data(); }
  const char** values() noexcept { return count_ > kInline ? heap_values_.data() : values_.data(); }
  int* lengths() noexcept { return count_ > kInline ? heap_lengths_.data() : lengths_.data(); }
  int* formats() noexcept { return count_ > kInline ? heap_formats_.data() : formats_.data(); }

 private:
  static constexpr std::size_t kInline = 16;
  std::size_t count_;
  std::array<Oid, kInline> types_{};
  std::array<const char*, kInline> values_{};
  std::array<int, kInline> lengths_{};
  std::array<int, kInline> formats_{};
  std::vector<Oid> heap_types_;
  std::vector<const char*> heap_values_;
  std::vector<int> heap_lengths_;
  std::vector<int> heap_formats_;
};

constexpr int kTextResults = 0;
constexpr int kBinaryResults = 1;

std::string describe_types(const std::vector<Oid>& types) {
  std::string text = "(";
  for (std::size_t i = 0; i < types.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(types[i]);
  }
  return text + ")";
}

std::vector<Oid> types_of(std::span<const Param> params) {
  std::vector<Oid> types(params.size());
  std::transform(params.begin(), params.end(), types.begin(),
                 [](const Param& p) { return p.type(); });
  return types;
}

// Compared in place: this runs for every execution of a prepared statement.
bool same_statement(const PreparedStatement& known, std::string_view sql,
                    std::span<const Param> params) {
  return known.sql == sql &&
         std::equal(known.types.begin(), known.types.end(), params.begin(), params.end(),
                    [](Oid type, const Param& p) { return type == p.type(); });
}

// The name a cached statement is prepared under: a hash of its SQL text and parameter
// types (FNV-1a, 64 bits), so that the same statement finds its preparation again on
// the connection. A collision is detected (same_statement) and runs unprepared. Written
// into a buffer on the caller's stack: this runs for every statement a handler issues.
using StatementName = std::array<char, 32>;
std::string_view cached_statement_name(std::string_view sql, std::span<const Param> params,
                                       StatementName& name) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  const auto mix = [&hash](unsigned char byte) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  };
  for (const char c : sql) {
    mix(static_cast<unsigned char>(c));
  }
  for (const Param& p : params) {
    const Oid type = p.type();
    for (std::size_t i = 0; i < sizeof type; ++i) {
      mix(static_cast<unsigned char>(type >> (8 * i)));
    }
  }
  const int length = std::snprintf(name.data(), name.size(), "docket_c_%016llx",
                                   static_cast<unsigned long long>(hash));
  return std::string_view(name.data(), static_cast<std::size_t>(length));
}

std::string prepared_label(std::string_view name, std::string_view sql) {
  return "prepared statement \"" + std::string(name) + "\" (" + std::string(sql) + ")";
}

// The statement prepared under `name` on `conn`, preparing it first if needed. Returns
// nullptr, and sets `failure`, when the server refuses to prepare it.
const PreparedStatement* prepare_once(Connection& conn, std::string_view name, std::string_view sql,
                                      std::span<const Param> params, Result& failure) {
  if (const PreparedStatement* known = conn.find_prepared(name)) {
    if (!same_statement(*known, sql, params)) {
      throw InvalidInputError("the prepared statement name \"" + std::string(name) +
                              "\" was first used with SQL `" + known->sql +
                              "` and parameter types " + describe_types(known->types) +
                              ", now with SQL `" + std::string(sql) + "` and parameter types " +
                              describe_types(types_of(params)) +
                              "; give each statement its own name and bind the same "
                              "parameter types every time (a typed NULL is std::optional<T>{})");
    }
    return known;
  }
  std::vector<Oid> types = types_of(params);
  PreparedStatement statement{std::string(name), std::string(sql), std::move(types)};
  count_round_trip();
  Result prepared(PQprepare(conn.native(), statement.name.c_str(), statement.sql.c_str(),
                            static_cast<int>(statement.types.size()), statement.types.data()));
  if (!prepared.ok()) {
    failure = std::move(prepared);
    return nullptr;
  }
  return &conn.remember_prepared(std::move(statement));
}

}  // namespace

void throw_failure(const Connection& conn, const Result& result, std::string_view statement) {
  std::string message = "PostgreSQL ";
  message += result.sqlstate().empty() ? "failure" : "error " + std::string(result.sqlstate());
  message += " on " + conn.description() + " running `" + std::string(statement) + "`: ";
  message += result.native() != nullptr ? result.error_message()
                                        : libpq_message(PQerrorMessage(conn.native()));
  if (!conn.healthy()) {
    message += " (the connection is broken; open a new one)";
  }
  throw PostgresError(std::string(result.sqlstate()), message);
}

Result try_exec(Connection& conn, std::string_view sql, std::span<const Param> params) {
  BoundParams bound(params);
  const std::string text(sql);  // libpq wants a NUL-terminated command
  if (!conn.deferred().empty()) {
    return send_after_deferred(conn, StatementSender([&](PGconn* pg) {
                                 return PQsendQueryParams(
                                     pg, text.c_str(), bound.count(), bound.types(), bound.values(),
                                     bound.lengths(), bound.formats(), kTextResults);
                               }));
  }
  count_round_trip();
  return Result(PQexecParams(conn.native(), text.c_str(), bound.count(), bound.types(),
                             bound.values(), bound.lengths(), bound.formats(), kTextResults));
}

Result exec(Connection& conn, std::string_view sql, std::span<const Param> params) {
  Result result = try_exec(conn, sql, params);
  if (!result.ok()) {
    throw_failure(conn, result, sql);
  }
  return result;
}

namespace {

// Runs the statement prepared under `name` (preparing it first if needed) with results
// in `result_format`; returns the failed Result like try_exec.
Result run_prepared(Connection& conn, std::string_view name, std::string_view sql,
                    std::span<const Param> params, int result_format) {
  if (!conn.deferred().empty() && conn.find_prepared(name) == nullptr) {
    // A preparation runs on its own, after the deferred commands: a ROLLBACK TO among
    // them may be what makes the transaction usable again.
    flush_deferred(conn);
  }
  Result failure(nullptr);
  const PreparedStatement* statement = prepare_once(conn, name, sql, params, failure);
  if (statement == nullptr) {
    return failure;
  }
  BoundParams bound(params);
  if (!conn.deferred().empty()) {
    return send_after_deferred(conn, StatementSender([&](PGconn* pg) {
                                 return PQsendQueryPrepared(
                                     pg, statement->name.c_str(), bound.count(), bound.values(),
                                     bound.lengths(), bound.formats(), result_format);
                               }));
  }
  count_round_trip();
  return Result(PQexecPrepared(conn.native(), statement->name.c_str(), bound.count(),
                               bound.values(), bound.lengths(), bound.formats(), result_format));
}

// run_prepared, throwing the failure.
Result run_prepared_or_throw(Connection& conn, std::string_view name, std::string_view sql,
                             std::span<const Param> params, int result_format) {
  Result result = run_prepared(conn, name, sql, params, result_format);
  if (!result.ok()) {
    throw_failure(conn, result, prepared_label(name, sql));
  }
  return result;
}

}  // namespace

Result try_exec_prepared(Connection& conn, std::string_view name, std::string_view sql,
                         std::span<const Param> params) {
  return run_prepared(conn, name, sql, params, kTextResults);
}

Result exec_prepared(Connection& conn, std::string_view name, std::string_view sql,
                     std::span<const Param> params) {
  return run_prepared_or_throw(conn, name, sql, params, kTextResults);
}

Result exec_prepared_binary(Connection& conn, std::string_view name, std::string_view sql,
                            std::span<const Param> params) {
  return run_prepared_or_throw(conn, name, sql, params, kBinaryResults);
}

Result try_exec_prepared_binary(Connection& conn, std::string_view name, std::string_view sql,
                                std::span<const Param> params) {
  return run_prepared(conn, name, sql, params, kBinaryResults);
}

Result try_exec_cached(Connection& conn, std::string_view sql, std::span<const Param> params) {
  StatementName buffer;
  const std::string_view name = cached_statement_name(sql, params, buffer);
  const PreparedStatement* known = conn.find_prepared(name);
  if (known != nullptr ? !same_statement(*known, sql, params)
                       : conn.prepared_count() >= kMaxCachedStatements) {
    return try_exec(conn, sql, params);
  }
  return try_exec_prepared(conn, name, sql, params);
}

std::optional<PreparedStatement> send_prepared(Connection& conn, std::string_view name,
                                               std::string_view sql,
                                               std::span<const Param> params) {
  StatementName buffer;
  const bool cached = name.empty();
  if (cached) {
    name = cached_statement_name(sql, params, buffer);
  }
  const PreparedStatement* known = conn.find_prepared(name);
  if (known != nullptr && !cached && !same_statement(*known, sql, params)) {
    Result unused(nullptr);
    prepare_once(conn, name, sql, params, unused);  // throws the misuse error
  }
  BoundParams bound(params);
  PGconn* pg = conn.native();
  const auto queued = [&conn, sql](int sent) {
    if (sent != 1) {
      throw_failure(conn, Result(nullptr), sql);
    }
  };
  if (known != nullptr && same_statement(*known, sql, params)) {
    queued(PQsendQueryPrepared(pg, known->name.c_str(), bound.count(), bound.values(),
                               bound.lengths(), bound.formats(), kTextResults));
    return std::nullopt;
  }
  const std::string text(sql);
  if (cached && (known != nullptr || conn.prepared_count() >= kMaxCachedStatements)) {
    // A cached name taken by another statement, or the cache full: unprepared.
    queued(PQsendQueryParams(pg, text.c_str(), bound.count(), bound.types(), bound.values(),
                             bound.lengths(), bound.formats(), kTextResults));
    return std::nullopt;
  }
  PreparedStatement statement{std::string(name), text, types_of(params)};
  queued(PQsendPrepare(pg, statement.name.c_str(), text.c_str(),
                       static_cast<int>(statement.types.size()), statement.types.data()));
  queued(PQsendQueryPrepared(pg, statement.name.c_str(), bound.count(), bound.values(),
                             bound.lengths(), bound.formats(), kTextResults));
  return statement;
}

void exec_script(Connection& conn, std::string_view sql) {
  const std::string text(sql);
  flush_deferred(conn);  // a multi-statement script cannot travel in a pipeline
  count_round_trip();
  Result result(PQexec(conn.native(), text.c_str()));
  if (!result.ok()) {
    throw_failure(conn, result, sql);
  }
}

}  // namespace docket::postgres::detail
