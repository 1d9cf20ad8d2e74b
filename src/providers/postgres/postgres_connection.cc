#include "providers/postgres/postgres_connection.h"

#include <cstdio>
#include <cstring>
#include <utility>

#include "docket/core/error.h"
#include "providers/postgres/postgres_conninfo.h"
#include "providers/postgres/postgres_libpq_text.h"

namespace docket::postgres::detail {

namespace {

// libpq prints every notice on stderr by default. A NOTICE ("relation ... already
// exists, skipping", from the idempotent CREATE ... IF NOT EXISTS of an application's
// set-up or of docket's) or an INFO is nothing a service's log needs at every start; a
// WARNING is kept, printed as libpq prints it.
void print_warnings_only(void*, const PGresult* notice) {
  const char* severity = PQresultErrorField(notice, PG_DIAG_SEVERITY_NONLOCALIZED);
  if (severity != nullptr && std::strcmp(severity, "WARNING") == 0) {
    std::fputs(PQresultErrorMessage(notice), stderr);
  }
}

}  // namespace

Connection::Connection(std::string_view conninfo) {
  ConnInfo info = parse_conninfo(conninfo);
  description_ = std::move(info.description);

  // libpq keeps the last value of a repeated keyword: application_name goes first so the
  // string can override it, client_encoding last so that it cannot (docket's text
  // parameters and results are UTF-8).
  std::vector<const char*> keywords{"application_name"};
  std::vector<const char*> values{"docket"};
  for (const auto& [keyword, value] : info.settings) {
    keywords.push_back(keyword.c_str());
    values.push_back(value.c_str());
  }
  keywords.push_back("client_encoding");
  values.push_back("UTF8");
  keywords.push_back(nullptr);
  values.push_back(nullptr);

  conn_.reset(PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/0));
  if (conn_ == nullptr) {
    throw InfrastructureError("cannot connect to PostgreSQL " + description_ +
                              ": libpq could not allocate a connection (out of memory)");
  }
  PQsetNoticeReceiver(conn_.get(), &print_warnings_only, nullptr);
  if (PQstatus(conn_.get()) != CONNECTION_OK) {
    std::string reason = libpq_message(PQerrorMessage(conn_.get()));
    throw InfrastructureError(redact_password(
        "cannot connect to PostgreSQL " + description_ + ": " + reason +
            "; check that the server is running and reachable and that the user, database "
            "and credentials in the connection string are right",
        conninfo));
  }
}

bool Connection::healthy() const noexcept {
  return conn_ != nullptr && PQstatus(conn_.get()) == CONNECTION_OK;
}

bool Connection::idle() const noexcept {
  return healthy() && PQtransactionStatus(conn_.get()) == PQTRANS_IDLE &&
         PQpipelineStatus(conn_.get()) == PQ_PIPELINE_OFF && deferred_.empty();
}

bool Connection::in_transaction() const noexcept {
  return begin_deferred_ || PQtransactionStatus(conn_.get()) != PQTRANS_IDLE;
}

void Connection::defer(std::string_view command, bool begins) {
  deferred_.push_back(DeferredStatement{
      .sql = std::string(command), .write = false, .name = {}, .params = {}, .segment = segment_});
  begin_deferred_ = begin_deferred_ || begins;
}

void Connection::defer_write(std::string_view sql, std::string_view name,
                             std::span<const Param> params) {
  deferred_.push_back(DeferredStatement{.sql = std::string(sql),
                                        .write = true,
                                        .name = std::string(name),
                                        .params = OwnedParams(params),
                                        .segment = segment_});
  writes_deferred_ = true;
}

void Connection::redefer(std::vector<DeferredStatement> statements) {
  for (DeferredStatement& statement : statements) {
    writes_deferred_ = writes_deferred_ || statement.write;
    deferred_.push_back(std::move(statement));
  }
}

std::vector<DeferredStatement> Connection::take_deferred() noexcept {
  begin_deferred_ = false;
  writes_deferred_ = false;
  return std::exchange(deferred_, {});
}

void Connection::clear_deferred() noexcept {
  deferred_.clear();
  begin_deferred_ = false;
  writes_deferred_ = false;
}

int Connection::backend_pid() const noexcept {
  return conn_ ? PQbackendPID(conn_.get()) : 0;
}

const PreparedStatement* Connection::find_prepared(std::string_view name) const {
  auto it = prepared_.find(name);
  return it == prepared_.end() ? nullptr : &it->second;
}

const PreparedStatement& Connection::remember_prepared(PreparedStatement statement) {
  std::string key = statement.name;
  return prepared_.insert_or_assign(std::move(key), std::move(statement)).first->second;
}

void Connection::forget_prepared(std::string_view name) {
  if (auto it = prepared_.find(name); it != prepared_.end()) {
    prepared_.erase(it);
  }
}

}  // namespace docket::postgres::detail
