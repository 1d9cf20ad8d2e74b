// One connection to a NATS server and its JetStream context, logged in as the URL says.
//
//   Connection connection(parse_server_url(url));
//   js_AddStream(..., connection.jetstream(), ...);
//   connection.check(status, error_code, "declaring stream 'ORDERS'");  // throws NatsError
//
// A connection never reconnects by itself (the C client's reconnection is off): once
// the server closes it or it fails, every call on it fails, and its owner opens a new
// one with capped backoff. So a publish never waits in the client's reconnect buffer
// for a server that may not come back, and what a lost connection held (unacknowledged
// deliveries, unanswered publishes) has one clear fate: the server redelivers it, the
// relay publishes it again.
//
// Invariants: the URL's password appears in no message (server() masks it); a JetStream
// API request or a publish acknowledgement waits at most the URL's timeout.
//
// Thread-safety: a connection and its JetStream context may be used from many threads
// (the C client serialises them); construction and destruction from one.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_CONNECTION_H_
#define DOCKET_TRANSPORTS_NATS_NATS_CONNECTION_H_

#include <nats/nats.h>

#include <string>
#include <string_view>

#include "transports/nats/nats_error.h"
#include "transports/nats/nats_handles.h"
#include "transports/nats/nats_url.h"

namespace docket::nats::detail {

// The acknowledgement handler of asynchronous publishes on a connection
// (jsOptions.PublishAsync.AckHandler) and its closure; none for a connection that
// publishes nothing asynchronously.
struct PublishAckHandler {
  jsPubAckHandler handler = nullptr;
  void* closure = nullptr;
};

class Connection {
 public:
  // Connects and logs in. Throws NatsError: unreachable (nothing answers at the
  // address), authentication (user or password refused), or what the client reports.
  explicit Connection(ServerUrl url, PublishAckHandler acks = {});
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  natsConnection* get() const noexcept { return connection_.get(); }
  jsCtx* jetstream() const noexcept { return jetstream_.get(); }
  const ServerUrl& url() const noexcept { return url_; }
  // "nats://user:***@host:port?stream=...": the server in messages.
  std::string server() const { return printable(url_); }
  // True once the server closed the connection or it failed: open a new one.
  bool closed() const noexcept;

  // Throws NatsError naming the server, `doing` and the failure when `status` is not
  // NATS_OK: its kind from the status and the JetStream error code (a stream or
  // consumer not found; a request the user's permissions dropped, which the server
  // answers with an asynchronous permissions violation and the client sees as a
  // timeout, is access_refused, quoting the violation).
  void check(natsStatus status, jsErrCode error_code, std::string_view doing) const;
  [[noreturn]] void fail(NatsErrorKind kind, std::string_view doing,
                         std::string_view problem) const;

 private:
  ServerUrl url_;
  ConnectionPtr connection_;
  JetStreamPtr jetstream_;  // destroyed before the connection
};

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_CONNECTION_H_
