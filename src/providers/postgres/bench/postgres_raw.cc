#include "postgres_raw.h"

#include <array>
#include <cstdlib>
#include <exception>
#include <vector>

#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"

namespace docket::bench {
namespace {

bool succeeded(const PGresult* result) {
  const auto status = PQresultStatus(result);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

}  // namespace

RawPostgres::RawPostgres(const std::string& url, Counting counting)
    : url_(url), counting_(counting) {
  const std::array<const char*, 3> keywords{"dbname", "client_encoding", nullptr};
  const std::array<const char*, 3> values{url.c_str(), "UTF8", nullptr};
  conn_.reset(PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/1));
  if (conn_ == nullptr || PQstatus(conn_.get()) != CONNECTION_OK) {
    throw InfrastructureError("raw baseline: cannot connect to PostgreSQL at " +
                              printable_store_url(url) + ": " +
                              (conn_ ? PQerrorMessage(conn_.get()) : "out of memory"));
  }
  // NOTICEs (e.g. "schema ... already exists, skipping" from the idempotent set-up) are
  // informational; libpq's default prints them on stderr, into the report's stream.
  PQsetNoticeProcessor(
      conn_.get(), [](void*, const char*) {}, nullptr);
}

void RawPostgres::fail(RawPgResult result, std::string_view doing) const {
  const char* message =
      result != nullptr ? PQresultErrorMessage(result.get()) : PQerrorMessage(conn_.get());
  throw InfrastructureError("raw baseline on PostgreSQL " + printable_store_url(url_) + ": " +
                            std::string(doing) + " failed: " + message);
}

void RawPostgres::rollback_and_rethrow() {
  if (PQtransactionStatus(conn_.get()) != PQTRANS_IDLE) {
    count_round_trip();
    PQclear(PQexec(conn_.get(), "ROLLBACK"));
  }
  std::rethrow_exception(std::current_exception());
}

void RawPostgres::exec_script(const std::string& sql) {
  count_round_trip();
  RawPgResult result(PQexec(conn_.get(), sql.c_str()));
  if (!succeeded(result.get())) {
    fail(std::move(result), "running `" + sql + "`");
  }
}

void RawPostgres::exec_ddl(const std::string& sql) {
  // "docketbn" in ASCII: the bench's set-up lock, apart from the stores' migration lock.
  exec_script("BEGIN; SELECT pg_advisory_xact_lock(7237112439122453102); " + sql + "; COMMIT");
}

std::int64_t RawPostgres::count(const std::string& sql, std::string_view param) {
  const std::string text(param);
  const char* values[] = {text.c_str()};
  count_round_trip();
  RawPgResult result(
      PQexecParams(conn_.get(), sql.c_str(), 1, nullptr, values, nullptr, nullptr, 0));
  if (!succeeded(result.get()) || PQntuples(result.get()) != 1) {
    fail(std::move(result), "counting with `" + sql + "`");
  }
  return std::strtoll(PQgetvalue(result.get(), 0, 0), nullptr, 10);
}

void RawPostgres::prepare(const std::string& name, const std::string& sql,
                          std::span<const Oid> types) {
  count_round_trip();
  RawPgResult result(PQprepare(conn_.get(), name.c_str(), sql.c_str(),
                               static_cast<int>(types.size()), types.data()));
  if (!succeeded(result.get())) {
    fail(std::move(result), "preparing `" + sql + "`");
  }
}

RawPgResult RawPostgres::try_query(const char* name, std::span<const RawPgParam> params,
                                   int result_format) {
  values_.clear();
  lengths_.clear();
  formats_.clear();
  for (const RawPgParam& param : params) {
    values_.push_back(param.value);
    lengths_.push_back(param.length);
    formats_.push_back(param.format);
  }
  count_round_trip();
  return RawPgResult(PQexecPrepared(conn_.get(), name, static_cast<int>(params.size()),
                                    values_.data(), lengths_.data(), formats_.data(),
                                    result_format));
}

RawPgResult RawPostgres::query(const char* name, std::span<const RawPgParam> params,
                               int result_format) {
  RawPgResult result = try_query(name, params, result_format);
  if (!succeeded(result.get())) {
    fail(std::move(result), std::string("running prepared statement ") + name);
  }
  return result;
}

std::int64_t RawPostgres::run(const char* name, std::span<const RawPgParam> params) {
  const RawPgResult result = query(name, params);
  const char* tuples = PQcmdTuples(result.get());
  return *tuples == '\0' ? 0 : std::strtoll(tuples, nullptr, 10);
}

}  // namespace docket::bench
