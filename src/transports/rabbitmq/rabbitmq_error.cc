#include "transports/rabbitmq/rabbitmq_error.h"

namespace docket::rabbitmq::detail {

const char* to_string(BrokerErrorKind kind) noexcept {
  switch (kind) {
    case BrokerErrorKind::unreachable:
      return "unreachable";
    case BrokerErrorKind::authentication:
      return "authentication";
    case BrokerErrorKind::unknown_vhost:
      return "unknown_vhost";
    case BrokerErrorKind::access_refused:
      return "access_refused";
    case BrokerErrorKind::not_found:
      return "not_found";
    case BrokerErrorKind::precondition_failed:
      return "precondition_failed";
    case BrokerErrorKind::connection_lost:
      return "connection_lost";
    case BrokerErrorKind::protocol:
      return "protocol";
  }
  return "protocol";
}

}  // namespace docket::rabbitmq::detail
