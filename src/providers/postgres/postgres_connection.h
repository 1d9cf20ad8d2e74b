// Connection: one libpq connection (RAII over PGconn) and the prepared statements made
// on it.
//
// Opened from any libpq connection string: a postgresql:// URL or keyword=value pairs,
// every libpq setting (sslmode, target_session_attrs, ...) passed through. docket
// always talks UTF-8 (client_encoding is forced to UTF8) and names itself
// application_name=docket unless the string says otherwise.
// Errors name the database, host and user, never the password.
//
// Deferred statements: BEGIN, SAVEPOINT and RELEASE SAVEPOINT return nothing a caller
// reads, and neither does a handler's statement sent with Transaction::send; so they are
// not sent on their own but deferred, and travel in one pipeline flight with the next
// statement or the COMMIT (flight.h), which then costs one round trip, not several. A
// transaction whose BEGIN is still deferred has sent nothing: in_transaction() counts
// it as open, and ending it costs no round trip.
//
// Invariant: a prepared statement name, once remembered, maps to one SQL text and one
// list of parameter types for the life of the connection (PostgreSQL keeps prepared
// statements across transactions and rollbacks, until the session ends).
// Thread-safety: none. One thread uses a Connection at a time (libpq's own rule); share
// connections between threads through a Pool.
#ifndef DOCKET_PROVIDERS_POSTGRES_CONNECTION_H_
#define DOCKET_PROVIDERS_POSTGRES_CONNECTION_H_

#include <libpq-fe.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "providers/postgres/postgres_param.h"

namespace docket::postgres::detail {

// A statement held back until the next one (see Connection).
struct DeferredStatement {
  std::string sql;
  // A write (a caller's statement, or one of docket's own such as an outbox insert),
  // as opposed to a command without parameters (BEGIN, SAVEPOINT, RELEASE SAVEPOINT).
  bool write = false;
  // The name a write is prepared under; empty: a name derived from its text
  // (exec.h's try_exec_cached).
  std::string name;
  OwnedParams params;
  // The batch segment it belongs to (Connection::set_segment), if any.
  std::optional<std::size_t> segment;
};

struct PreparedStatement {
  std::string name;
  std::string sql;
  std::vector<Oid> types;
};

class FlightRecovery;

class Connection {
 public:
  // Connects, blocking. Throws ConfigurationError when the string cannot be parsed and
  // InfrastructureError when the server cannot be reached or refuses the connection.
  explicit Connection(std::string_view conninfo);

  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;
  ~Connection() = default;

  PGconn* native() const noexcept { return conn_.get(); }
  // `database "docket" on 127.0.0.1:55432 as user "docket"`, for messages.
  const std::string& description() const noexcept { return description_; }
  // False once libpq has seen the connection fail; it never recovers.
  bool healthy() const noexcept;
  // Healthy, outside any transaction block, out of pipeline mode and with nothing
  // deferred: fit to hand to the next user.
  bool idle() const noexcept;
  // Inside a transaction block on the server, or about to be (a deferred BEGIN).
  bool in_transaction() const noexcept;

  // Holds back `command` (no parameters, no rows) until the next statement; `begins`
  // marks the BEGIN of a transaction block.
  void defer(std::string_view command, bool begins = false);
  // Holds back a write until the next statement, with a copy of its parameters;
  // `name`: as DeferredStatement's.
  void defer_write(std::string_view sql, std::string_view name, std::span<const Param> params);
  std::span<const DeferredStatement> deferred() const noexcept { return deferred_; }
  // Whether a write is among the deferred statements.
  bool writes_deferred() const noexcept { return writes_deferred_; }
  // Whether a BEGIN is among the deferred commands: the transaction has sent nothing.
  bool begin_deferred() const noexcept { return begin_deferred_; }
  // Hands over the deferred statements to be sent, and forgets them.
  std::vector<DeferredStatement> take_deferred() noexcept;
  // Forgets the deferred commands, no longer wanted (a rollback).
  void clear_deferred() noexcept;
  // Holds back again statements taken for a flight that did not run them (flight.h's
  // FlightRecovery), after those deferred now.
  void redefer(std::vector<DeferredStatement> statements);
  // Tags the statements deferred from now on with `segment` (none: untagged).
  void set_segment(std::optional<std::size_t> segment) noexcept { segment_ = segment; }
  // What a flight asks when one of its deferred statements fails (flight.h); nullptr:
  // the failure is thrown. Not owned; the caller clears it before it goes away.
  void set_recovery(FlightRecovery* recovery) noexcept { recovery_ = recovery; }
  FlightRecovery* recovery() const noexcept { return recovery_; }
  // The server process serving this connection (pg_stat_activity.pid).
  int backend_pid() const noexcept;

  // The statement prepared under `name`, or nullptr when none was (see exec.h's
  // exec_prepared, which prepares on first use).
  const PreparedStatement* find_prepared(std::string_view name) const;
  const PreparedStatement& remember_prepared(PreparedStatement statement);
  // Forgets a statement remembered before its preparation was confirmed (a pipeline
  // remembers it when sending, so that a later statement of the flight uses the name),
  // once the server refused to prepare it.
  void forget_prepared(std::string_view name);
  std::size_t prepared_count() const noexcept { return prepared_.size(); }

 private:
  struct Deleter {
    void operator()(PGconn* conn) const { PQfinish(conn); }
  };
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const noexcept {
      return std::hash<std::string_view>{}(name);
    }
  };

  std::unique_ptr<PGconn, Deleter> conn_;
  std::string description_;
  std::unordered_map<std::string, PreparedStatement, NameHash, std::equal_to<>> prepared_;
  std::vector<DeferredStatement> deferred_;
  std::optional<std::size_t> segment_;
  FlightRecovery* recovery_ = nullptr;
  bool begin_deferred_ = false;
  bool writes_deferred_ = false;
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_CONNECTION_H_
