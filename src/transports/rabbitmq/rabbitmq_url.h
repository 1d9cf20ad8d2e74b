// The broker URL of the RabbitMQ transport:
//
//   amqp://user:password@host:port/vhost?exchange=orders&heartbeat=30
//
// User, password and vhost are percent-decoded; the port defaults to 5672 and the vhost
// to "/" (an empty path; "/%2F" names "/" too). Options (all optional):
//   exchange            the exchange messages are published to
//   heartbeat           seconds between heartbeats, 0 for none (default 30)
//   connect_timeout_ms  TCP connect and login timeout, and the limit on any broker
//                       round trip (default 5000)
//   frame_max           largest frame the client proposes (default 131072, RabbitMQ's)
//   max_message_size    largest body the client sends, the broker's `max_message_size`
//                       (default 134217728, RabbitMQ 3.10's): bigger is refused before
//                       sending
// An option named twice, unknown or with a bad value is a ConfigurationError naming it.
// The password is never part of a message: printable() masks it as "***".
//
// Thread-safety: pure functions over values.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_URL_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_URL_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace docket::rabbitmq::detail {

struct BrokerUrl {
  std::string user = "guest";
  std::string password = "guest";
  std::string host;
  int port = 5672;
  std::string vhost = "/";
  std::string exchange;  // empty: none given
  int heartbeat_seconds = 30;
  std::chrono::milliseconds connect_timeout{5000};
  int frame_max = 131072;
  std::uint64_t max_message_size = 134217728;
};

// Parses an amqp:// URL; throws docket::ConfigurationError saying what is wrong (the
// URL in the message is printable(), its password masked) and the form expected.
BrokerUrl parse_broker_url(std::string_view url);

// The URL with its password replaced by "***": what messages and logs show.
std::string printable(const BrokerUrl& url);

// printable() of a URL that may not parse: its credentials masked by docket's one rule
// (core/url_credentials.h: the user info's password, credential query parameters).
std::string printable_url_text(std::string_view url);

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_URL_H_
