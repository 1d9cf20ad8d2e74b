// PostgreSQL's server faults for `docket chaos --allow-server-restart`
// (tools/docket/chaos/server_faults.h): the workers' sessions terminated by the server
// (pg_terminate_backend), and the server crashed by SIGKILLing one backend serving a
// worker, upon which the postmaster ends every other session and restarts with crash
// recovery, as after a power loss of the server process. Only on a server of this
// machine (host a loopback address or a socket directory), and only the run's own
// sessions are terminated: the workers connect with the run's application_name.
#include <signal.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "chaos_provider.h"
#include "docket/core/error.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/postgres_conninfo.h"

// The provider's internals this file uses (parse_conninfo); their namespace, here once.
namespace pg = docket::postgres::detail;

namespace docket::postgres {
namespace {

// The run's sessions, on the database the URL names.
constexpr std::string_view kWorkerSessions =
    "FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()";

bool is_local_host(std::string_view host) {
  return host.empty() || host.starts_with('/') || host == "localhost" || host == "::1" ||
         host.starts_with("127.");
}

// Runs body(Transaction&) in a unit of work of its own on `url`.
template <class Body>
auto with_session(const std::string& url, Body&& body) {
  const auto store = docket::open_inbox_store(url);  // the registry's, by URL
  auto unit = store->begin();
  auto* tx = dynamic_cast<Transaction*>(&unit->handler_transaction());
  if (tx == nullptr) {
    throw ConfigurationError("chaos: server faults need a PostgreSQL store");
  }
  auto result = body(*tx);
  unit->commit();
  return result;
}

class PostgresFaults final : public tool::ServerFaults {
 public:
  // Throws ConfigurationError when the server is not on this machine.
  PostgresFaults(std::string_view url, std::string_view run);

  const std::string& worker_url() const noexcept override { return worker_url_; }
  std::int64_t drop_sessions() override;
  bool crash_server() override;
  bool accepting() override;

 private:
  std::string url_;
  std::string application_name_;
  std::string worker_url_;
};

PostgresFaults::PostgresFaults(std::string_view url, std::string_view run)
    : url_(url), application_name_("docket-chaos-" + std::string(run)) {
  std::string host;
  for (const auto& [keyword, value] : pg::parse_conninfo(url).settings) {
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

std::int64_t PostgresFaults::drop_sessions() {
  return with_session(url_, [&](Transaction& tx) {
    const auto rows = tx.query(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) " + std::string(kWorkerSessions),
        {application_name_});
    return std::get<std::int64_t>(rows.at(0).at(0));
  });
}

bool PostgresFaults::crash_server() {
  const std::int64_t pid = with_session(url_, [&](Transaction& tx) -> std::int64_t {
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
    return with_session(url_, [](Transaction& tx) { return tx.query("SELECT 1").size() == 1; });
  } catch (const InfrastructureError&) {
    return false;  // refused while recovering: the answer asked for, not a failure
  }
}

std::unique_ptr<tool::ServerFaults> server_faults(std::string_view url, std::string_view run) {
  return std::make_unique<PostgresFaults>(url, run);
}

}  // namespace

const tool::ChaosProvider& chaos_provider() {
  static const tool::ChaosProvider provider{
      .server_faults = &server_faults,
      .server_name = "PostgreSQL",
      .crash_effect = "a backend SIGKILLed; it restarts with recovery"};
  return provider;
}

}  // namespace docket::postgres
