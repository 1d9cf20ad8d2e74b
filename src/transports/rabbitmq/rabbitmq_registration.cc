// The RabbitMQ transport's registration with open_transport()
// (src/transports/transport_registration.h).
#include "docket/rabbitmq/transport.h"
#include "transports/transport_registration.h"

namespace docket::rabbitmq {
namespace {

constexpr std::string_view kSchemes[] = {"amqp"};

std::unique_ptr<Transport> open(std::string_view url) {
  return std::make_unique<RabbitMqTransport>(url);
}

}  // namespace

const transports::TransportRegistration& transport_registration() {
  static const transports::TransportRegistration registration{
      .name = "rabbitmq",
      .schemes = kSchemes,
      .url_form = "amqp://user:password@host:port/vhost?exchange=name",
      .open = &open};
  return registration;
}

}  // namespace docket::rabbitmq
