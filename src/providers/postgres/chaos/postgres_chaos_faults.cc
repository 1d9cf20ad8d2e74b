#include "postgres_faults.h"

#include <signal.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/postgres_conninfo.h"

namespace docket::tool {
namespace {

// The run's sessions, on the database the URL names.
constexpr std::string_view kWorkerSessions =
    "FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()";

bool is_local_host(std::string_view host) {
  return host.empty() || host.starts_with('/') || host == "localhost" || host == "::1" ||
         host.starts_with("127.");
}

// Runs body(postgres::Transaction&) in a unit of work of its own on `url`.
template <class Body>
auto with_session(const std::string& url, Body&& body) {
  const auto store = open_inbox_store(url);
  auto unit = store->begin();
  auto* tx = dynamic_cast<postgres::Transaction*>(&unit->handler_transaction());
  if (tx == nullptr) {
    throw ConfigurationError("chaos: server faults need a PostgreSQL store");
  }
  auto result = body(*tx);
  unit->commit();
  return result;
}

}  // namespace

bool is_postgres_url(std::string_view url) {
  return url.starts_with("postgresql://") || url.starts_with("postgres://");
}

PostgresFaults::PostgresFaults(std::string_view url, std::string_view run)
    : url_(url), application_name_("docket-chaos-" + std::string(run)) {
  std::string host;
  for (const auto& [keyword, value] : postgres::parse_conninfo(url).settings) {
    if (keyword == "host" || keyword == "hostaddr") {
      host = value;
    }
  }
  if (!is_local_host(host)) {
    throw ConfigurationError(
        "chaos: --allow-server-restart crashes the PostgreSQL server by signalling its "
        "processes, which only a server on this machine allows; the store's host is '" +
        host + "'. Point --store at a local server, or leave out --allow-server-restart");
  }
  worker_url_ = url_ + (url_.find('?') == std::string::npos ? "?" : "&") +
                "application_name=" + application_name_;
}

std::int64_t PostgresFaults::drop_connections() {
  return with_session(url_, [&](postgres::Transaction& tx) {
    const auto rows = tx.query(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) " + std::string(kWorkerSessions),
        {application_name_});
    return std::get<std::int64_t>(rows.at(0).at(0));
  });
}

bool PostgresFaults::crash_server() {
  const std::int64_t pid = with_session(url_, [&](postgres::Transaction& tx) -> std::int64_t {
    const auto rows = tx.query("SELECT pid::bigint " + std::string(kWorkerSessions) + " LIMIT 1",
                               {application_name_});
    return rows.empty() ? 0 : std::get<std::int64_t>(rows.at(0).at(0));
  });
  if (pid == 0) {
    return false;
  }
  // The pid is the server's; make sure this machine's process of that number is it.
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  if (name != "postgres") {
    throw InfrastructureError("chaos: the server's backend " + std::to_string(pid) +
                              " is not a postgres process of this machine ('" + name +
                              "'); is the server in another container? Leave out "
                              "--allow-server-restart");
  }
  if (kill(static_cast<pid_t>(pid), SIGKILL) != 0 && errno != ESRCH) {
    throw InfrastructureError("chaos: cannot signal the server's backend " + std::to_string(pid) +
                              ": " + std::strerror(errno) +
                              "; run as the server's user, or leave out --allow-server-restart");
  }
  return true;
}

bool PostgresFaults::accepting() {
  try {
    return with_session(url_,
                        [](postgres::Transaction& tx) { return tx.query("SELECT 1").size() == 1; });
  } catch (const InfrastructureError&) {
    return false;  // refused while recovering: the answer asked for, not a failure
  }
}

}  // namespace docket::tool
