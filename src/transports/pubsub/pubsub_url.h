// A Pub/Sub transport URL, and where the transport sends its requests:
//
//   pubsub://HOST:PORT?project=PROJECT[&OPTION=VALUE...]
//       a server at HOST:PORT over plain HTTP: the Pub/Sub emulator; no credentials sent
//   pubsub://googleapis?project=PROJECT[&OPTION=VALUE...]
//       the Cloud Pub/Sub service, https://pubsub.googleapis.com, with an OAuth2 access
//       token from DOCKET_PUBSUB_ACCESS_TOKEN (pubsub_client.h)
//
// Options (each at most once; anything else is refused):
//   project=P            required: the Google Cloud project of the topics
//   topic_prefix=X       prepended to every topic name (pubsub_names.h); default none
//   ack_deadline=S       seconds a pulled message is the subscription's before Pub/Sub
//                        redelivers it, 10..600 (Pub/Sub's range); default 60
//   max_message_size=N   bytes of data and attributes a message may carry, 1..10485760
//                        (Pub/Sub's 10 MB); larger ones are refused before sending
//   create=true|false    whether topics and subscriptions missing are created (true) or
//                        only checked, for a user without the right to create them
//
// Nothing else is accepted: user info (the token comes from the environment, never the
// URL), a path, a fragment, a host without a port, a malformed project id, a prefix
// that is not made of topic-name characters. Errors name the URL, what was wrong in it
// and the forms accepted.
//
// Thread-safety: immutable values and pure functions.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_URL_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_URL_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace docket::pubsub::detail {

inline constexpr std::string_view kUrlForms =
    "pubsub://HOST:PORT?project=PROJECT[&topic_prefix=X][&ack_deadline=SECONDS]"
    "[&max_message_size=BYTES][&create=true|false], "
    "pubsub://googleapis?project=PROJECT[&...]";

// Pub/Sub's limits (https://cloud.google.com/pubsub/quotas#resource_limits).
inline constexpr std::size_t kMaxMessageBytes = 10 * 1024 * 1024;  // data + attributes
inline constexpr std::size_t kMaxRequestBytes = 10 * 1024 * 1024;  // one :publish body
inline constexpr std::size_t kMaxMessagesPerRequest = 1000;
inline constexpr int kMinAckDeadlineSeconds = 10;
inline constexpr int kMaxAckDeadlineSeconds = 600;

struct PubSubUrl {
  std::string text{};       // the URL as given (it carries no secret)
  bool googleapis = false;  // the Cloud Pub/Sub service, not the emulator
  std::string endpoint{};   // "http://127.0.0.1:28500", "https://pubsub.googleapis.com"
  std::string project{};
  std::string topic_prefix{};
  int ack_deadline_seconds = 60;
  std::size_t max_message_bytes = kMaxMessageBytes;
  bool create = true;

  // "projects/P"
  std::string project_path() const { return "projects/" + project; }
};

// Throws ConfigurationError naming the URL, what is wrong in it and the forms accepted.
PubSubUrl parse_pubsub_url(std::string_view url);

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_URL_H_
