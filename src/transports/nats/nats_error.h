// What goes wrong between docket and a NATS server, as exceptions a caller can branch
// on: which kind of failure it was, whether a new connection (with backoff) can help,
// and a message naming the server (its masked URL) and what to do.
//
// Thread-safety: exception objects are immutable after construction.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_ERROR_H_
#define DOCKET_TRANSPORTS_NATS_NATS_ERROR_H_

#include <nats/nats.h>

#include <string>
#include <string_view>

#include "docket/core/error.h"

namespace docket::nats::detail {

enum class NatsErrorKind {
  unreachable,      // no connection (server down, wrong host or port)
  authentication,   // the server refused the user name or password
  access_refused,   // an operation the user's permissions do not allow
  not_found,        // a stream or consumer that does not exist
  mismatch,         // a stream or consumer exists with another configuration
  timeout,          // no answer in time (JetStream unavailable, overloaded)
  connection_lost,  // an open connection failed or was closed: reconnect with backoff
  protocol,         // anything else the server or the client library reported
};

// The kind's name as messages and tests print it ("connection_lost").
const char* to_string(NatsErrorKind kind) noexcept;

// The kind of a failed C client call's status (natsStatus).
NatsErrorKind kind_of(natsStatus status) noexcept;

// A NATS operation failed. Nothing is retried behind the caller's back.
class NatsError : public InfrastructureError {
 public:
  NatsError(NatsErrorKind kind, const std::string& message)
      : InfrastructureError(message), kind_(kind) {}
  NatsErrorKind kind() const noexcept { return kind_; }
  // True when the same call may succeed on a new connection later (the server was down,
  // the connection dropped, or it did not answer in time); false when only a change of
  // settings, permissions or streams can make it succeed.
  bool reconnect_may_help() const noexcept {
    return kind_ == NatsErrorKind::unreachable || kind_ == NatsErrorKind::connection_lost ||
           kind_ == NatsErrorKind::timeout;
  }

 private:
  NatsErrorKind kind_;
};

// "<status text>" and, when the C client recorded one, its last error ("... (last
// error: ...)"): what a message quotes of a failed call.
std::string status_text(natsStatus status);

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_ERROR_H_
