// The Redis Streams transport's registration with open_transport()
// (src/transports/transport_registration.h): the scheme redis://, as the Redis store's.
#include "docket/redis/transport.h"
#include "transports/redis/redis_streams_url.h"
#include "transports/transport_registration.h"

namespace docket::redis {
namespace {

constexpr std::string_view kStreamsSchemes[] = {"redis"};

std::unique_ptr<Transport> open_streams(std::string_view url) {
  return std::make_unique<StreamsTransport>(url);
}

}  // namespace

const transports::TransportRegistration& transport_registration() {
  static const transports::TransportRegistration registration{.name = "redis",
                                                              .schemes = kStreamsSchemes,
                                                              .url_form = streams::kStreamsUrlForm,
                                                              .open = &open_streams};
  return registration;
}

}  // namespace docket::redis
