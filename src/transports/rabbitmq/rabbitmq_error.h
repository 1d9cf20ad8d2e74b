// What goes wrong between docket and a RabbitMQ broker, as exceptions a caller can
// branch on: which kind of failure it was, whether reconnecting (with backoff) can
// help, and a message naming the broker (its masked URL) and what to do.
//
// Thread-safety: exception objects are immutable after construction.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_ERROR_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_ERROR_H_

#include <string>

#include "docket/core/error.h"

namespace docket::rabbitmq::detail {

enum class BrokerErrorKind {
  unreachable,          // no TCP connection (broker down, wrong host or port)
  authentication,       // the broker refused the user name or password
  unknown_vhost,        // the vhost does not exist, or the user may not use it
  access_refused,       // an operation the user's permissions do not allow
  not_found,            // a passive check or an operation named a missing entity
  precondition_failed,  // an entity exists with other arguments, or a limit was hit
  connection_lost,      // an open connection or channel failed: reconnect with backoff
  protocol,             // anything else the broker or the client library reported
};

// The kind's name as messages and tests print it ("connection_lost").
const char* to_string(BrokerErrorKind kind) noexcept;

// A broker operation failed. Nothing is retried behind the caller's back.
class BrokerError : public InfrastructureError {
 public:
  BrokerError(BrokerErrorKind kind, const std::string& message)
      : InfrastructureError(message), kind_(kind) {}
  BrokerErrorKind kind() const noexcept { return kind_; }
  // True when the same call may succeed on a new connection later (the broker was
  // down or the connection dropped); false when only a change of settings, permissions
  // or topology can make it succeed.
  bool reconnect_may_help() const noexcept {
    return kind_ == BrokerErrorKind::unreachable || kind_ == BrokerErrorKind::connection_lost;
  }

 private:
  BrokerErrorKind kind_;
};

// The connection (or the channel it was using) is gone: every handle over it is dead,
// and what was unacknowledged will be redelivered by the broker. Open a new connection,
// with backoff.
class ConnectionLost : public BrokerError {
 public:
  explicit ConnectionLost(const std::string& message)
      : BrokerError(BrokerErrorKind::connection_lost, message) {}
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_ERROR_H_
