#include "providers/postgres/postgres_listener.h"

#include <cstring>
#include <optional>
#include <string>

#include "docket/core/error.h"
#include "providers/postgres/postgres_connection.h"

namespace docket::postgres::detail {
namespace {

// One listening connection's life (kit::NotificationListener::Listen): returns true when
// the listener stopped, false when the connection failed or could not be made.
bool listen_once(const std::string& conninfo, const std::string& channel,
                 kit::NotificationListener::Session& session) {
  std::optional<Connection> connection;
  try {
    connection.emplace(conninfo);
  } catch (const Error&) {
    return false;  // the server is away: try again after the pause
  }
  PGconn* conn = connection->native();
  // The channel's name on this connection's search_path, quoted as an identifier.
  const std::string name_sql = "SELECT " + channel;
  PGresult* named = PQexec(conn, name_sql.c_str());
  std::string listen;
  if (PQresultStatus(named) == PGRES_TUPLES_OK && PQntuples(named) == 1 &&
      PQgetisnull(named, 0, 0) == 0) {
    const char* name = PQgetvalue(named, 0, 0);
    if (char* quoted = PQescapeIdentifier(conn, name, std::strlen(name)); quoted != nullptr) {
      listen = "LISTEN " + std::string(quoted);
      PQfreemem(quoted);
    }
  }
  PQclear(named);
  if (listen.empty())
    return false;
  PGresult* result = PQexec(conn, listen.c_str());
  const bool listening = PQresultStatus(result) == PGRES_COMMAND_OK;
  PQclear(result);
  if (!listening)
    return false;
  session.subscribed();
  for (;;) {
    if (!session.wait_readable(PQsocket(conn)))
      return true;
    if (PQconsumeInput(conn) == 0)
      return false;  // the connection failed: open another
    bool heard = false;
    while (PGnotify* notification = PQnotifies(conn)) {
      PQfreemem(notification);
      heard = true;
    }
    if (heard)
      session.heard();
  }
}

}  // namespace

std::shared_ptr<kit::NotificationListener> shared_listener(std::string_view conninfo,
                                                           std::string_view channel) {
  std::string key = "postgres:";
  key.append(conninfo).append(1, '\0').append(channel);
  return kit::shared_listener(key, [&] {
    return [conninfo = std::string(conninfo),
            channel = std::string(channel)](kit::NotificationListener::Session& session) {
      return listen_once(conninfo, channel, session);
    };
  });
}

}  // namespace docket::postgres::detail
