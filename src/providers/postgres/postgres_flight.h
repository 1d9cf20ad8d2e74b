// One pipeline flight: a connection's deferred statements (connection.h: BEGIN,
// SAVEPOINT, RELEASE SAVEPOINT, a handler's Transaction::send) and the statement that
// follows them, sent together in libpq's pipeline mode with one sync and their results
// read in order: one round trip where sending each on its own would cost one apiece.
//
// Semantics are those of sending them one by one: the server runs them in order in the
// same session, and after a failure it skips the rest of the flight, so a statement never
// runs after a deferred command that failed, unless a FlightRecovery installed on the
// connection rolled that command's work back and had the rest sent again.
//
// Thread-safety: as the Connection's.
#ifndef DOCKET_PROVIDERS_POSTGRES_FLIGHT_H_
#define DOCKET_PROVIDERS_POSTGRES_FLIGHT_H_

#include <libpq-fe.h>

#include <cstddef>
#include <vector>

#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_result.h"

namespace docket::postgres::detail {

// Sends the statement a libpq PQsend* call makes: `send(pg)` returns its result (1 on
// success). A reference to a callable, never stored.
class StatementSender {
 public:
  template <class Send>
  explicit StatementSender(const Send& send) noexcept
      : callable_(&send), call_([](const void* callable, PGconn* pg) {
          return (*static_cast<const Send*>(callable))(pg);
        }) {}
  int operator()(PGconn* pg) const { return call_(callable_, pg); }

 private:
  const void* callable_;
  int (*call_)(const void*, PGconn*);
};

// Told when a deferred statement of a flight failed, so that the flight can go on
// without it (a batch's segment rolled back alone: unit_of_work.h). Installed on the
// Connection (Connection::set_recovery).
class FlightRecovery {
 public:
  virtual ~FlightRecovery() = default;
  // `statements[failed]` failed with `failure`, and the server skipped every statement
  // after it, the one the flight was sent for included. Returns false to have the
  // failure thrown as without recovery; true having deferred on `conn` what is to run in
  // place of the skipped statements, which the flight then sends, followed by its
  // statement again.
  virtual bool recover(Connection& conn, std::vector<DeferredStatement>& statements,
                       std::size_t failed, const Result& failure) = 0;

 protected:
  FlightRecovery() = default;
  FlightRecovery(const FlightRecovery&) = default;
  FlightRecovery& operator=(const FlightRecovery&) = default;
};

// Sends `conn`'s deferred statements and then the statement of `send` in one flight,
// and returns the statement's Result, which may be a failure for the caller to report
// (as try_exec's). Throws when a deferred statement failed, naming it: PostgresError,
// or UniqueViolationError for a unique violation of a handler's statement; and
// PostgresError when the connection fails during the flight. Counts one round trip, and
// one more for each flight sent again after a recovery. Call only while something is
// deferred.
Result send_after_deferred(Connection& conn, StatementSender send);

// Sends `conn`'s deferred statements alone, in one round trip when there are any: before
// what cannot travel in a pipeline (a multi-statement script), before a caller uses the
// PGconn itself, and where a handler's sent statements must report now. Throws as
// send_after_deferred.
void flush_deferred(Connection& conn);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_FLIGHT_H_
