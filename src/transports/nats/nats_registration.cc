// The NATS JetStream transport's registration with open_transport()
// (src/transports/transport_registration.h).
#include "docket/nats/transport.h"
#include "transports/transport_registration.h"

namespace docket::nats {
namespace {

constexpr std::string_view kSchemes[] = {"nats"};

std::unique_ptr<Transport> open(std::string_view url) {
  return std::make_unique<NatsTransport>(url);
}

}  // namespace

const transports::TransportRegistration& transport_registration() {
  static const transports::TransportRegistration registration{
      .name = "nats",
      .schemes = kSchemes,
      .url_form = "nats://user:password@host:port?stream=NAME&subject=SUBJECTS",
      .open = &open};
  return registration;
}

}  // namespace docket::nats
