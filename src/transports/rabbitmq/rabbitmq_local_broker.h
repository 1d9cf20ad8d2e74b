// A RabbitMQ broker running on this machine, found by the TCP port its AMQP listener
// holds, and restarted in place: the tests' and `docket chaos --allow-broker-restart`'s
// way of taking a broker away from its clients and giving it back.
//
//   LocalBroker broker = LocalBroker::find(parse_broker_url(url));
//   broker.restart();  // stop_app, start_app, then wait until a client can log in
//
// What a restart is: `rabbitmqctl stop_app` then `rabbitmqctl start_app`, run with the
// broker VM's own environment (read from /proc/<pid>/environ: its node name, the HOME
// that holds its Erlang cookie, its epmd port). stop_app closes every client connection
// (connection.close 320), its listener, its queues and message store; start_app
// recovers durable exchanges, queues and bindings and the persistent messages of durable
// queues from disk, and listens again. What clients held unacknowledged is redelivered,
// flagged as such; transient messages and non-durable entities are gone.
// What a restart is not: the Erlang VM stopping (its pid, node name, epmd registration
// and distribution port stay), a fresh node (nothing is wiped, unlike
// scripts/rabbitmq-start.sh), or a crash (the stop is clean, the message store flushed).
//
// Invariants: only a broker on a loopback host (127.0.0.0/8, localhost, ::1) is ever
// found; pid() is the Erlang VM that held the URL's port when find() ran; the password
// of the URL appears in no message.
//
// Thread-safety: find() from any thread; a LocalBroker is an immutable value, and
// restart() may be called from any thread, one restart of a broker at a time.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_LOCAL_BROKER_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_LOCAL_BROKER_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "transports/rabbitmq/rabbitmq_url.h"

namespace docket::rabbitmq::detail {

class LocalBroker {
 public:
  static constexpr std::chrono::seconds kDefaultRestartTimeout{60};

  // The broker listening on `url`'s port. Throws ConfigurationError when the host is not
  // loopback, when the process holding the port cannot be inspected (run as the broker's
  // user, or root), when it is not an Erlang VM, or when no rabbitmqctl is found beside
  // its RabbitMQ; InfrastructureError when nothing listens on the port (the broker is
  // down). Each message names the broker by printable(url) and says what to do.
  static LocalBroker find(const BrokerUrl& url);

  // Restarts the RabbitMQ application (above) and returns once a client connects and
  // logs in with the URL's credentials, all within `timeout`. Throws InfrastructureError
  // naming the step that failed, rabbitmqctl's output, and what to do (after a failed
  // start_app the VM still runs with the application stopped: the message says how to
  // start it).
  void restart(std::chrono::seconds timeout = kDefaultRestartTimeout) const;

  pid_t pid() const noexcept { return pid_; }
  // RABBITMQ_NODENAME of the VM ("docket-28200@localhost"); empty when it has none
  // (rabbitmqctl then finds the node from the same environment).
  const std::string& node() const noexcept { return node_; }
  const std::string& rabbitmqctl() const noexcept { return rabbitmqctl_; }
  // "RabbitMQ broker amqp://user:***@host:port/vhost (node N, pid P)".
  std::string describe() const;

 private:
  LocalBroker() = default;

  // Runs rabbitmqctl `command` with the VM's environment until `deadline`; throws
  // InfrastructureError with its output when it fails or overruns. `then` is what the
  // message tells the operator to do about it.
  void run_rabbitmqctl(std::string_view command, std::chrono::steady_clock::time_point deadline,
                       std::string_view then) const;
  void wait_until_clients_connect(std::chrono::steady_clock::time_point deadline) const;

  BrokerUrl url_;
  pid_t pid_ = 0;
  std::string node_;
  std::string rabbitmqctl_;
  std::vector<std::string> environment_;  // "NAME=value", the VM's, verbatim
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_LOCAL_BROKER_H_
