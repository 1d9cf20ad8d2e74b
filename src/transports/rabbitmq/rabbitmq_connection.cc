#include "transports/rabbitmq/rabbitmq_connection.h"

#include <amqp_tcp_socket.h>
#include <sys/time.h>

#include <string>

namespace docket::rabbitmq::detail {
namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

std::string reply_detail(int code, amqp_bytes_t text) {
  return "the broker replied " + std::to_string(code) + " " + to_string(text);
}

const char* channel_close_advice(int code) {
  switch (code) {
    case AMQP_ACCESS_REFUSED:
      return "grant the user the permission (rabbitmqctl set_permissions), or have the "
             "topology declared by a user who has it and check it passively";
    case AMQP_NOT_FOUND:
      return "declare it, or correct the name";
    case AMQP_PRECONDITION_FAILED:
      return "the entity exists with other arguments, or a broker limit was exceeded: "
             "align the settings with the broker's";
    default:
      return "the channel is closed; open another";
  }
}

BrokerErrorKind channel_close_kind(int code) {
  switch (code) {
    case AMQP_ACCESS_REFUSED:
      return BrokerErrorKind::access_refused;
    case AMQP_NOT_FOUND:
      return BrokerErrorKind::not_found;
    case AMQP_PRECONDITION_FAILED:
      return BrokerErrorKind::precondition_failed;
    default:
      return BrokerErrorKind::protocol;
  }
}

}  // namespace

amqp_bytes_t as_bytes(std::string_view text) noexcept {
  amqp_bytes_t bytes;
  bytes.len = text.size();
  bytes.bytes = const_cast<char*>(text.data());  // rabbitmq-c only reads it
  return bytes;
}

std::string to_string(amqp_bytes_t bytes) {
  return bytes.len == 0 ? std::string()
                        : std::string(static_cast<const char*>(bytes.bytes), bytes.len);
}

Connection::Connection(const BrokerUrl& url) : url_(url), broker_(printable(url)) {
  state_ = amqp_new_connection();
  if (state_ == nullptr) {
    throw BrokerError(
        BrokerErrorKind::protocol,
        "RabbitMQ broker " + broker_ + ": rabbitmq-c could not allocate a connection");
  }
  try {
    amqp_socket_t* socket = amqp_tcp_socket_new(state_);  // owned by state_
    if (socket == nullptr)
      fail(BrokerErrorKind::protocol, "creating a socket", "out of memory", "");
    timeval timeout = to_timeval(url_.connect_timeout);
    const int opened = amqp_socket_open_noblock(socket, url_.host.c_str(), url_.port, &timeout);
    if (opened != AMQP_STATUS_OK) {
      fail(BrokerErrorKind::unreachable, "connecting", amqp_error_string2(opened),
           "is the broker running and listening on " + url_.host + ":" + std::to_string(url_.port) +
               "? (scripts/rabbitmq-start.sh starts a local one); retry with backoff");
    }
    amqp_set_handshake_timeout(state_, &timeout);
    amqp_set_rpc_timeout(state_, &timeout);
    alive_ = true;
    logging_in_ = true;
    check(amqp_login(state_, url_.vhost.c_str(), 0, url_.frame_max, url_.heartbeat_seconds,
                     AMQP_SASL_METHOD_PLAIN, url_.user.c_str(), url_.password.c_str()),
          0, "logging in as '" + url_.user + "' to vhost '" + url_.vhost + "'", nullptr);
    logging_in_ = false;
  } catch (...) {
    amqp_destroy_connection(state_);
    throw;
  }
}

Connection::~Connection() {
  if (alive_)
    amqp_connection_close(state_, AMQP_REPLY_SUCCESS);
  amqp_destroy_connection(state_);
}

int Connection::frame_max() const noexcept {
  return amqp_get_frame_max(state_);
}

void Connection::require_alive(std::string_view doing) const {
  if (!alive_) {
    throw ConnectionLost("RabbitMQ broker " + broker_ + ": " + std::string(doing) +
                         " failed: the connection was lost earlier; open a new connection");
  }
}

void Connection::fail(BrokerErrorKind kind, std::string_view doing, const std::string& detail,
                      std::string_view advice) {
  std::string message =
      "RabbitMQ broker " + broker_ + ": " + std::string(doing) + " failed: " + detail;
  if (!advice.empty())
    message += "; " + std::string(advice);
  if (kind == BrokerErrorKind::connection_lost)
    throw ConnectionLost(message);
  throw BrokerError(kind, message);
}

void Connection::check(const amqp_rpc_reply_t& reply, amqp_channel_t channel,
                       std::string_view doing, bool* channel_closed) {
  switch (reply.reply_type) {
    case AMQP_RESPONSE_NORMAL:
      return;
    case AMQP_RESPONSE_LIBRARY_EXCEPTION:
      fail_status(reply.library_error, doing);
    case AMQP_RESPONSE_SERVER_EXCEPTION:
      fail_close_method(reply.reply, channel, doing, channel_closed);
    case AMQP_RESPONSE_NONE:
      break;
  }
  alive_ = false;
  fail(BrokerErrorKind::protocol, doing, "rabbitmq-c returned no reply", "open a new connection");
}

void Connection::fail_status(int status, std::string_view doing) {
  // rabbitmq-c leaves a connection in an undefined state after any failed call.
  alive_ = false;
  const std::string detail = amqp_error_string2(status);
  const bool closed =
      status == AMQP_STATUS_CONNECTION_CLOSED || status == AMQP_STATUS_SOCKET_CLOSED;
  if (logging_in_ && closed) {
    fail(BrokerErrorKind::authentication, doing, "the broker closed the connection during login",
         "check the user name and password in the URL");
  }
  switch (status) {
    case AMQP_STATUS_CONNECTION_CLOSED:
    case AMQP_STATUS_SOCKET_CLOSED:
    case AMQP_STATUS_SOCKET_ERROR:
    case AMQP_STATUS_TCP_ERROR:
    case AMQP_STATUS_HEARTBEAT_TIMEOUT:
    case AMQP_STATUS_TIMEOUT:
      fail(BrokerErrorKind::connection_lost, doing, detail,
           "the connection is lost; reconnect with backoff (unacknowledged deliveries are "
           "redelivered, unconfirmed publishes must be published again)");
    default:
      fail(BrokerErrorKind::protocol, doing, detail, "open a new connection");
  }
}

void Connection::fail_close_method(const amqp_method_t& method, amqp_channel_t channel,
                                   std::string_view doing, bool* channel_closed) {
  if (method.id == AMQP_CHANNEL_CLOSE_METHOD) {
    const auto* close = static_cast<const amqp_channel_close_t*>(method.decoded);
    const int code = close->reply_code;
    const std::string detail = reply_detail(code, close->reply_text);
    amqp_channel_close_ok_t close_ok{};
    if (amqp_send_method(state_, channel, AMQP_CHANNEL_CLOSE_OK_METHOD, &close_ok) !=
        AMQP_STATUS_OK) {
      alive_ = false;
    }
    if (channel_closed != nullptr)
      *channel_closed = true;
    fail(channel_close_kind(code), doing, detail, channel_close_advice(code));
  }
  if (method.id == AMQP_CONNECTION_CLOSE_METHOD) {
    const auto* close = static_cast<const amqp_connection_close_t*>(method.decoded);
    const int code = close->reply_code;
    const std::string detail = reply_detail(code, close->reply_text);
    amqp_connection_close_ok_t close_ok{};
    amqp_send_method(state_, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &close_ok);
    alive_ = false;
    if (logging_in_ && code == AMQP_ACCESS_REFUSED) {
      fail(BrokerErrorKind::authentication, doing, detail,
           "check the user name and password in the URL");
    }
    if (logging_in_ && code == AMQP_NOT_ALLOWED) {
      fail(BrokerErrorKind::unknown_vhost, doing, detail,
           "create the vhost (rabbitmqctl add_vhost) and grant the user permissions on it, or "
           "correct the vhost in the URL's path");
    }
    fail(BrokerErrorKind::connection_lost, doing, detail,
         "the broker closed the connection; reconnect with backoff");
  }
  alive_ = false;
  fail(BrokerErrorKind::protocol, doing,
       std::string("unexpected method ") + amqp_method_name(method.id), "open a new connection");
}

Channel::Channel(Connection& connection)
    : connection_(&connection), id_(connection.next_channel_id()) {
  const std::string doing = "opening channel " + std::to_string(id_);
  connection.require_alive(doing);
  amqp_channel_open(state(), id_);
  check(amqp_get_rpc_reply(state()), doing);
}

Channel::~Channel() {
  if (open()) {
    const amqp_rpc_reply_t reply = amqp_channel_close(state(), id_, AMQP_REPLY_SUCCESS);
    static_cast<void>(reply);  // a failure here leaves nothing to undo
  }
}

void Channel::check(const amqp_rpc_reply_t& reply, std::string_view doing) {
  connection_->check(reply, id_, doing, &closed_);
}

void Channel::require_open(std::string_view doing) const {
  connection_->require_alive(doing);
  if (closed_) {
    throw BrokerError(BrokerErrorKind::protocol,
                      "RabbitMQ broker " + connection_->broker() + ": " + std::string(doing) +
                          " failed: channel " + std::to_string(id_) +
                          " was closed by the broker after an earlier error; open another channel");
  }
}

void Channel::fail_close_method(const amqp_method_t& method, amqp_channel_t channel,
                                std::string_view doing) {
  bool other_channel_closed = false;
  connection_->fail_close_method(method, channel, doing,
                                 channel == id_ ? &closed_ : &other_channel_closed);
}

}  // namespace docket::rabbitmq::detail
