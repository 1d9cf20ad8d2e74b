// The Pub/Sub transport's part of `docket chaos` (tools/docket/chaos/chaos_transport.h):
// the run's group is its subscription, deleted with its topics once the run is over. No broker
// restarts: the emulator keeps no topics or subscriptions across a restart (so a restart would lose
// the run's messages by design, not by fault), and the service cannot be restarted.
#include "chaos_transport.h"
#include "transports/pubsub/pubsub_group_removal.h"

namespace docket::pubsub {
namespace {

void remove_group(std::string_view url, std::string_view destination, std::string_view group) {
  detail::remove_group(url, destination, group);
}

}  // namespace

const tool::ChaosTransport& chaos_transport() {
  static const tool::ChaosTransport transport{.broker_restarts = nullptr,
                                              .remove_group = &remove_group,
                                              .broker_name = "Pub/Sub",
                                              .restart_effect = {}};
  return transport;
}

}  // namespace docket::pubsub
