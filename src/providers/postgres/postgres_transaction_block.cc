#include "providers/postgres/postgres_transaction_block.h"

#include <string>

#include "docket/core/error.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_flight.h"
#include "providers/postgres/postgres_round_trips.h"

namespace docket::postgres::detail {
namespace {

std::string_view begin_statement(Isolation isolation) {
  switch (isolation) {
    case Isolation::kReadCommitted:
      return "BEGIN ISOLATION LEVEL READ COMMITTED";
    case Isolation::kRepeatableRead:
      return "BEGIN ISOLATION LEVEL REPEATABLE READ";
    case Isolation::kSerializable:
      return "BEGIN ISOLATION LEVEL SERIALIZABLE";
  }
  return "BEGIN";
}

std::string savepoint_statement(std::string_view command, std::string_view name) {
  bool valid = !name.empty() && name.size() <= 63 && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name) {
    valid = valid && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_');
  }
  if (!valid) {
    throw InvalidInputError("\"" + std::string(name) +
                            "\" is not usable as a savepoint name: use 1 to 63 ASCII letters, "
                            "digits or '_', not starting with a digit");
  }
  return std::string(command) + " " + std::string(name);
}

}  // namespace

TransactionBlock::TransactionBlock(Connection& conn, Isolation isolation) : conn_(conn) {
  if (conn.in_transaction()) {
    throw InvalidInputError("cannot begin a transaction on " + conn.description() +
                            ": the connection is already inside a transaction block (or "
                            "broken); end that one first");
  }
  conn_.defer(begin_statement(isolation), /*begins=*/true);
  active_ = true;
}

TransactionBlock::~TransactionBlock() {
  if (active_ && end_unsent() && conn_.healthy()) {
    // Nothing to report from a destructor: if this fails the connection is left
    // non-idle, which is what Pool checks before reusing it.
    count_round_trip();
    PQclear(PQexec(conn_.native(), "ROLLBACK"));
  }
}

bool TransactionBlock::end_unsent() noexcept {
  const bool sent = !conn_.begin_deferred();
  conn_.clear_deferred();
  return sent;
}

void TransactionBlock::require_active(std::string_view operation) const {
  if (!active_) {
    throw InvalidInputError("cannot " + std::string(operation) + " on " + conn_.description() +
                            ": the transaction has already been committed or rolled back");
  }
}

void TransactionBlock::commit() {
  require_active("commit");
  active_ = false;
  if (conn_.begin_deferred() && !conn_.writes_deferred()) {
    conn_.clear_deferred();  // nothing was or is to be sent, so nothing is to commit
    return;
  }
  Result result(nullptr);
  if (conn_.deferred().empty()) {
    count_round_trip();
    result = Result(PQexec(conn_.native(), "COMMIT"));
  } else {
    try {
      result = send_after_deferred(conn_, StatementSender([](PGconn* pg) {
                                     return PQsendQueryParams(pg, "COMMIT", 0, nullptr, nullptr,
                                                              nullptr, nullptr, 0);
                                   }));
    } catch (...) {
      // A deferred statement failed, so the COMMIT behind it never ran: end the
      // transaction here, leaving the connection idle for its next user.
      if (conn_.healthy() && conn_.in_transaction()) {
        count_round_trip();
        PQclear(PQexec(conn_.native(), "ROLLBACK"));
      }
      throw;
    }
  }
  if (!result.ok()) {
    throw_failure(conn_, result, "COMMIT");
  }
  // COMMIT of a transaction in which a statement failed succeeds as a ROLLBACK.
  if (std::string_view(PQcmdStatus(result.native())) != "COMMIT") {
    throw PostgresError(std::string(sqlstate::kInFailedSqlTransaction),
                        "PostgreSQL rolled back the transaction on " + conn_.description() +
                            " instead of committing it, because a statement in it had failed; "
                            "roll back to a savepoint after a failure you want to survive");
  }
}

void TransactionBlock::rollback() {
  require_active("roll back");
  active_ = false;
  if (end_unsent()) {
    exec_script(conn_, "ROLLBACK");
  }
}

void TransactionBlock::savepoint(std::string_view name) {
  require_active("set a savepoint");
  conn_.defer(savepoint_statement("SAVEPOINT", name));
}

void TransactionBlock::rollback_to(std::string_view name) {
  require_active("roll back to a savepoint");
  conn_.defer(savepoint_statement("ROLLBACK TO SAVEPOINT", name));
}

void TransactionBlock::release(std::string_view name) {
  require_active("release a savepoint");
  conn_.defer(savepoint_statement("RELEASE SAVEPOINT", name));
}

}  // namespace docket::postgres::detail
