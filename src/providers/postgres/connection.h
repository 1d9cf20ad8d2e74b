// Connection: one libpq connection (RAII over PGconn) and the prepared statements made
// on it.
//
// Opened from any libpq connection string: a postgresql:// URL or keyword=value pairs,
// every libpq setting (sslmode, target_session_attrs, ...) passed through. docket
// always talks UTF-8 (client_encoding is forced to UTF8) and names itself
// application_name=docket unless the string says otherwise.
// Errors name the database, host and user, never the password.
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
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace docket::postgres {

struct PreparedStatement {
  std::string name;
  std::string sql;
  std::vector<Oid> types;
};

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
  // Healthy and outside any transaction block: fit to hand to the next user.
  bool idle() const noexcept;
  // The server process serving this connection (pg_stat_activity.pid).
  int backend_pid() const noexcept;

  // The statement prepared under `name`, or nullptr when none was (see exec.h's
  // exec_prepared, which prepares on first use).
  const PreparedStatement* find_prepared(std::string_view name) const;
  const PreparedStatement& remember_prepared(PreparedStatement statement);
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
};

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_CONNECTION_H_
