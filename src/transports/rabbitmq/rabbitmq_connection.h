// RAII over rabbitmq-c: a Connection (TCP socket, login, heartbeats, timeouts) and a
// Channel on it. Every failure becomes a BrokerError (rabbitmq_error.h) whose message
// names the broker by its masked URL; a failure that leaves the connection unusable
// (socket error, heartbeat timeout, connection.close from the broker, a round trip past
// the timeout) marks it dead and throws ConnectionLost, and every later use of it or
// its channels throws ConnectionLost too: open a new Connection, with backoff.
//
// Invariants: a Channel never outlives its Connection; the connection is used by one
// thread at a time, and by one channel at a time (rabbitmq-c reads whatever frame comes
// next, of any channel: the publisher and the consumer each own a connection).
//
// Thread-safety: none; confine a Connection and its channels to one thread at a time.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_CONNECTION_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_CONNECTION_H_

#include <amqp.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "transports/rabbitmq/rabbitmq_error.h"
#include "transports/rabbitmq/rabbitmq_url.h"

namespace docket::rabbitmq::detail {

class Connection {
 public:
  // Connects (at most url.connect_timeout) and logs in with the URL's user, vhost,
  // frame_max and heartbeat. Throws BrokerError: unreachable (broker down),
  // authentication (wrong user or password), unknown_vhost, or protocol.
  explicit Connection(const BrokerUrl& url);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  amqp_connection_state_t state() const noexcept { return state_; }
  const BrokerUrl& url() const noexcept { return url_; }
  // The masked URL every message names the broker by.
  const std::string& broker() const noexcept { return broker_; }
  bool alive() const noexcept { return alive_; }
  // The frame size the broker and client agreed on at login.
  int frame_max() const noexcept;

  // Throws ConnectionLost when the connection is dead.
  void require_alive(std::string_view doing) const;
  // Throws the BrokerError `reply` describes, unless it is AMQP_RESPONSE_NORMAL.
  // `channel` is the channel the call was on (0: the connection), `doing` what the
  // caller was doing ("declaring exchange 'orders'"). A channel.close from the broker
  // is answered (close-ok) and reported through `channel_closed`; a connection.close or
  // a library failure marks the connection dead.
  void check(const amqp_rpc_reply_t& reply, amqp_channel_t channel, std::string_view doing,
             bool* channel_closed);
  // Throws what a rabbitmq-c status (a negative amqp_status_enum) means, marking the
  // connection dead: every such status on an open connection loses it.
  [[noreturn]] void fail_status(int status, std::string_view doing);
  // Handles a connection.close or channel.close method frame read outside an RPC (by
  // a publisher waiting for confirms, a consumer waiting for deliveries) as check does.
  [[noreturn]] void fail_close_method(const amqp_method_t& method, amqp_channel_t channel,
                                      std::string_view doing, bool* channel_closed);

  // The next free channel number (channels are never reused on one connection).
  amqp_channel_t next_channel_id() noexcept { return next_channel_++; }

 private:
  [[noreturn]] void fail(BrokerErrorKind kind, std::string_view doing, const std::string& detail,
                         std::string_view advice);

  BrokerUrl url_;
  std::string broker_;
  amqp_connection_state_t state_ = nullptr;
  bool alive_ = false;
  bool logging_in_ = false;
  amqp_channel_t next_channel_ = 1;
};

// One AMQP channel, opened in the constructor and closed (when the connection still
// lives) in the destructor. A channel the broker closed (an error on it) is dead:
// its operations throw; open another.
class Channel {
 public:
  explicit Channel(Connection& connection);
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  Connection& connection() const noexcept { return *connection_; }
  amqp_connection_state_t state() const noexcept { return connection_->state(); }
  amqp_channel_t id() const noexcept { return id_; }
  bool open() const noexcept { return !closed_ && connection_->alive(); }

  // Connection::check for a call on this channel.
  void check(const amqp_rpc_reply_t& reply, std::string_view doing);
  // Throws ConnectionLost (connection dead) or a protocol BrokerError (channel closed
  // by the broker after an earlier error) when the channel cannot be used.
  void require_open(std::string_view doing) const;
  // Connection::fail_close_method for a close read on this channel's connection.
  [[noreturn]] void fail_close_method(const amqp_method_t& method, amqp_channel_t channel,
                                      std::string_view doing);

 private:
  Connection* connection_;
  amqp_channel_t id_;
  bool closed_ = false;  // by the broker, or never opened
};

// An amqp_bytes_t viewing `text` (rabbitmq-c does not write through it).
amqp_bytes_t as_bytes(std::string_view text) noexcept;
std::string to_string(amqp_bytes_t bytes);

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_CONNECTION_H_
