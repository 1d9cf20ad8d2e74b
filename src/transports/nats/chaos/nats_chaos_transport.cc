// The NATS transport's part of `docket chaos` (tools/docket/chaos/chaos_transport.h): a
// server restart is nats_local_server.h's (SIGTERM, then the same command line again:
// JetStream's streams, consumers and acknowledgement state recovered from its store
// directory); the run's group is its durable consumer, deleted once the run is over.
#include "chaos_transport.h"
#include "docket/nats/transport.h"
#include "transports/nats/nats_connection.h"
#include "transports/nats/nats_local_server.h"
#include "transports/nats/nats_topology.h"

namespace docket::nats {
namespace {

class NatsRestarts final : public tool::BrokerRestarts {
 public:
  explicit NatsRestarts(detail::LocalServer server) : server_(std::move(server)) {}
  void restart() override { server_.restart(); }

 private:
  detail::LocalServer server_;
};

std::unique_ptr<tool::BrokerRestarts> broker_restarts(std::string_view url) {
  return std::make_unique<NatsRestarts>(detail::LocalServer::find(detail::parse_server_url(url)));
}

void remove_group(std::string_view url, std::string_view destination, std::string_view group) {
  const std::string consumer = NatsTransport(url).consumer_name(destination, group);
  detail::delete_consumer(detail::Connection(detail::parse_server_url(url)), consumer);
}

}  // namespace

const tool::ChaosTransport& chaos_transport() {
  static const tool::ChaosTransport transport{
      .broker_restarts = &broker_restarts,
      .remove_group = &remove_group,
      .broker_name = "NATS",
      .restart_effect =
          "SIGTERM and the same nats-server command line again: every connection closed, "
          "streams, consumers and their acknowledgement state recovered from the JetStream "
          "store"};
  return transport;
}

}  // namespace docket::nats
