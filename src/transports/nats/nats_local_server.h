// A NATS server running on this machine, found by the TCP port its client listener
// holds, and restarted in place with its own command line: the tests' and `docket chaos
// --allow-broker-restart`'s way of taking the server away from its clients and giving it
// back with its JetStream store.
//
//   LocalServer server = LocalServer::find(parse_server_url(url));
//   server.restart();  // SIGTERM, wait until it exits, start it again, wait for JetStream
//
// What a restart is: SIGTERM to the server (a clean shutdown: JetStream flushes its
// store and closes every client connection), a wait until the process is gone, then
// the same executable with the same arguments, working directory and environment,
// started in a session of its own (`setsid -f`, so that it is nobody's child and a
// process-group stop, scripts/nats-stop.sh, finds it; a server started with -P writes
// its new pid there); it returns once a client logs in and JetStream answers. Streams,
// consumers, their messages and acknowledgement state come back from the store
// directory; what clients held unacknowledged is delivered again.
// What it is not: a crash (the shutdown is clean), or a fresh server.
//
// Invariants: only a server on a loopback host is ever found; the password of the URL
// appears in no message.
//
// Thread-safety: find() from any thread; restart() from one thread at a time per server.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_LOCAL_SERVER_H_
#define DOCKET_TRANSPORTS_NATS_NATS_LOCAL_SERVER_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "transports/local_server_process.h"
#include "transports/nats/nats_url.h"

namespace docket::nats::detail {

class LocalServer {
 public:
  static constexpr std::chrono::seconds kDefaultRestartTimeout{60};

  // The server listening on `url`'s port. Throws ConfigurationError when the host is not
  // loopback or the process holding the port cannot be inspected or is not nats-server;
  // InfrastructureError when nothing listens there.
  static LocalServer find(const ServerUrl& url);

  // Restarts it (above) within `timeout`. Throws InfrastructureError naming the step that
  // failed and what to do. Each restart finds the server anew by its port.
  void restart(std::chrono::seconds timeout = kDefaultRestartTimeout);

  pid_t pid() const noexcept { return pid_; }
  // "NATS server nats://user:***@host:port (pid P)".
  std::string describe() const;

 private:
  LocalServer() = default;

  ServerUrl url_;
  pid_t pid_ = 0;
  transports::detail::ProcessImage image_;  // what it runs: started again as it was
};

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_LOCAL_SERVER_H_
