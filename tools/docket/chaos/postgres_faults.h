// The faults `docket chaos` injects into a PostgreSQL server beside killing its own
// processes: the workers' connections terminated by the server, and the server itself
// crashed (one of its backends SIGKILLed, upon which the postmaster ends every other
// session and restarts with crash recovery, as after a power loss of the server
// process). Only with --allow-server-restart, only on a server of this machine.
//
// Only the run's own sessions are touched: the workers connect with the run's
// application_name, and drop_connections() terminates those alone; a crash, by its
// nature, ends every session of the server.
//
// Thread-safety: one owner thread.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_POSTGRES_FAULTS_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_POSTGRES_FAULTS_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace docket::tool {

// Whether `url` is a PostgreSQL store URL (postgresql:// or postgres://).
bool is_postgres_url(std::string_view url);

class PostgresFaults {
 public:
  // Throws ConfigurationError when the server is not on this machine (host neither a
  // loopback address nor a socket directory).
  PostgresFaults(std::string_view url, std::string_view run);

  // The store URL the workers connect with: `url` naming the run's application_name.
  const std::string& worker_url() const noexcept { return worker_url_; }

  // Terminates the workers' sessions; returns how many there were.
  std::int64_t drop_connections();
  // SIGKILLs one backend serving a worker; returns false when none was connected (a
  // worker restarting), to be tried again later. Throws InfrastructureError when the
  // process found is not a postgres process this tool may signal.
  bool crash_server();
  // Whether the server accepts a session again (after a crash, once recovery ended).
  bool accepting();

 private:
  std::string url_;
  std::string application_name_;
  std::string worker_url_;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_POSTGRES_FAULTS_H_
