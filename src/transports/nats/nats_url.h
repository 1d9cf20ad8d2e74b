// The server URL of the NATS JetStream transport:
//
//   nats://user:password@host:port?stream=ORDERS&subject=orders.>&ack_wait=30s
//
// User and password are percent-decoded (both or neither; without them the server must
// allow anonymous clients); the port defaults to 4222. Options:
//   stream            the JetStream stream every message is stored in and every consumer
//                     reads (required by the transport; letters, digits, '-' and '_')
//   subject           the subjects the stream takes, comma-separated NATS subjects with
//                     the wildcards '*' and '>' ("orders.>,billing.*"); given, the stream
//                     is declared with them (or, when it exists, checked to take them);
//                     not given, the stream must exist and is taken as it is
//   timeout           connecting, each JetStream API request, and the wait for a
//                     publish's acknowledgement (default 5s)
//   ack_wait          a consumer's AckWait: how long a delivery may stay unacknowledged
//                     before the server delivers it again (default 30s)
//   max_deliver       a consumer's MaxDeliver (default unlimited: docket's consumer
//                     runner counts deliveries and dead-letters)
//   max_ack_pending   a consumer's MaxAckPending, across its subscriptions (default 10000)
//   duplicate_window  the stream's window in which a message id seen before is dropped
//                     (default 2m, JetStream's)
//   max_msg_size      the stream's largest message in bytes (default: the server's
//                     max_payload alone)
//   max_age           the stream's MaxAge (default: none, messages are kept)
// A duration is a whole number with a unit: ms, s, m, h or d ("500ms", "30s", "2m"). An
// option named twice, unknown or with a value out of range is a ConfigurationError
// naming it. The password is never part of a message: printable() masks it as "***".
//
// Thread-safety: pure functions over values.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_URL_H_
#define DOCKET_TRANSPORTS_NATS_NATS_URL_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docket::nats::detail {

struct ServerUrl {
  std::optional<std::string> user;  // with password; nullopt: no credentials
  std::string password;
  std::string host;
  int port = 4222;
  std::string stream;                 // empty: none given
  std::vector<std::string> subjects;  // empty: none given
  std::chrono::milliseconds timeout{5000};
  std::chrono::milliseconds ack_wait{30000};
  std::optional<std::int64_t> max_deliver;  // nullopt: unlimited
  std::int64_t max_ack_pending = 10000;
  std::chrono::milliseconds duplicate_window{120000};
  std::optional<std::int32_t> max_msg_size;
  std::optional<std::chrono::milliseconds> max_age;
};

// Parses a nats:// URL; throws docket::ConfigurationError saying what is wrong (the URL
// in the message masked) and the form expected.
ServerUrl parse_server_url(std::string_view url);

// The URL with its password replaced by "***" and every option it gave: what messages
// and logs show.
std::string printable(const ServerUrl& url);

// "nats://host:port": the address the C client connects to (credentials go apart).
std::string address(const ServerUrl& url);

// True when `subject` is a NATS subject a message may be published to: tokens of
// printable characters without whitespace, '*' or '>', separated by single dots.
bool is_publish_subject(std::string_view subject);

// True when `filter` matches `subject` (NATS wildcards: '*' one token, '>' the rest).
bool subject_matches(std::string_view filter, std::string_view subject);

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_URL_H_
