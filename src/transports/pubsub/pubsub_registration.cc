// The Pub/Sub transport's registration with open_transport()
// (src/transports/transport_registration.h).
#include "docket/pubsub/transport.h"
#include "transports/transport_registration.h"

namespace docket::pubsub {
namespace {

constexpr std::string_view kSchemes[] = {"pubsub"};

std::unique_ptr<Transport> open(std::string_view url) {
  return std::make_unique<PubSubTransport>(url);
}

}  // namespace

const transports::TransportRegistration& transport_registration() {
  static const transports::TransportRegistration registration{
      .name = "pubsub",
      .schemes = kSchemes,
      .url_form = "pubsub://host:port?project=P[&topic_prefix=X] or pubsub://googleapis?project=P",
      .open = &open};
  return registration;
}

}  // namespace docket::pubsub
