// What a broker transport lends `docket chaos --transport URL` beyond the transport
// itself: restarting its broker (--allow-broker-restart) and removing the run's queue
// afterwards. Each transport that lends them defines, in its folder
// (src/transports/<name>/chaos/, the library docket_transport_<name>_chaos, listed by
// src/transports/CMakeLists.txt),
//
//   const docket::tool::ChaosTransport& docket::<name>::chaos_transport();
//
// and chaos_transports() lists them, so that the tool names no broker.
//
// Thread-safety: the entries are immutable; the functions they hold may be called from
// many threads, each object they return used by one.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_TRANSPORT_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_TRANSPORT_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace docket::tool {

// Restarts of a broker on this machine.
class BrokerRestarts {
 public:
  virtual ~BrokerRestarts() = default;
  // Restarts the broker and returns once it accepts clients again. Throws
  // InfrastructureError naming the broker when it cannot, or does not come back.
  virtual void restart() = 0;
};

struct ChaosTransport {
  // The restarts of the broker of `url` (a URL of this transport); nullptr: this
  // transport's broker cannot be restarted. Throws ConfigurationError when the broker
  // is not one this machine may restart (not on this machine, say).
  std::unique_ptr<BrokerRestarts> (*broker_restarts)(std::string_view url) = nullptr;
  // Removes what the run declared on the broker for `destination`'s consumer `group`
  // (its queue), once the run is over; nullptr: nothing to remove. Throws what the
  // broker's client throws.
  void (*remove_group)(std::string_view url, std::string_view destination,
                       std::string_view group) = nullptr;
  // For the run's log and messages: the broker's name ("RabbitMQ") and what a restart
  // does to it.
  std::string_view broker_name{};
  std::string_view restart_effect{};
};

struct ChaosTransportEntry {
  std::string_view name;  // the transport's registered name (transport_registration.h)
  const ChaosTransport* transport;
};

// Every transport of this build that lends `docket chaos` anything (chaos_transports.cc).
std::span<const ChaosTransportEntry> chaos_transports();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_TRANSPORT_H_
