// The faults `docket chaos` injects into a store's server beside killing its own
// processes (--allow-server-restart): the workers' sessions ended by the server, and
// the server itself crashed, to restart with crash recovery as after a power loss of
// its process. A provider whose stores live on a server offers them
// (chaos_provider.h; PostgreSQL's in src/providers/postgres/chaos/), only for a server
// on this machine.
//
// Only the run's own sessions are touched: the workers connect through worker_url(),
// which marks their sessions as the run's, and drop_sessions() ends those alone; a
// crash, by its nature, ends every session of the server.
//
// Thread-safety: one owner thread.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_SERVER_FAULTS_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_SERVER_FAULTS_H_

#include <cstdint>
#include <string>

namespace docket::tool {

class ServerFaults {
 public:
  virtual ~ServerFaults() = default;

  // The store URL the workers connect with: the store's URL marking the run's sessions.
  virtual const std::string& worker_url() const noexcept = 0;

  // Ends the workers' sessions; returns how many there were.
  virtual std::int64_t drop_sessions() = 0;
  // Crashes the server through a process serving a worker; returns false when no worker
  // was connected (a worker restarting), to be tried again later. Throws
  // InfrastructureError when the process found is not one this tool may signal.
  virtual bool crash_server() = 0;
  // Whether the server accepts a session again (after a crash, once recovery ended).
  virtual bool accepting() = 0;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_SERVER_FAULTS_H_
