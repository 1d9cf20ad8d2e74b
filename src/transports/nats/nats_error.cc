#include "transports/nats/nats_error.h"

namespace docket::nats::detail {

const char* to_string(NatsErrorKind kind) noexcept {
  switch (kind) {
    case NatsErrorKind::unreachable:
      return "unreachable";
    case NatsErrorKind::authentication:
      return "authentication";
    case NatsErrorKind::access_refused:
      return "access_refused";
    case NatsErrorKind::not_found:
      return "not_found";
    case NatsErrorKind::mismatch:
      return "mismatch";
    case NatsErrorKind::timeout:
      return "timeout";
    case NatsErrorKind::connection_lost:
      return "connection_lost";
    case NatsErrorKind::protocol:
      return "protocol";
  }
  return "protocol";
}

NatsErrorKind kind_of(natsStatus status) noexcept {
  switch (status) {
    case NATS_NO_SERVER:
      return NatsErrorKind::unreachable;
    case NATS_CONNECTION_AUTH_FAILED:
      return NatsErrorKind::authentication;
    case NATS_NOT_PERMITTED:
      return NatsErrorKind::access_refused;
    case NATS_NOT_FOUND:
      return NatsErrorKind::not_found;
    case NATS_TIMEOUT:
      return NatsErrorKind::timeout;
    case NATS_CONNECTION_CLOSED:
    case NATS_CONNECTION_DISCONNECTED:
    case NATS_IO_ERROR:
    case NATS_STALE_CONNECTION:
    case NATS_SLOW_CONSUMER:
      return NatsErrorKind::connection_lost;
    default:
      return NatsErrorKind::protocol;
  }
}

std::string status_text(natsStatus status) {
  std::string text = natsStatus_GetText(status);
  natsStatus last = NATS_OK;
  const char* detail = nats_GetLastError(&last);
  if (detail != nullptr && *detail != '\0' && text != detail)
    text += " (" + std::string(detail) + ")";
  return text;
}

}  // namespace docket::nats::detail
