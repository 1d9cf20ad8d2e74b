// How docket's destinations and consumer groups become Pub/Sub resource names.
//
//   topic of destination D          topic_prefix + encode(D)
//   subscription of group G on D    topic of D + "-" + encode(G or "default")
//
// encode() keeps the bytes a Pub/Sub name may hold besides '%' (letters, digits, and
// - _ . ~ +) and writes every other byte as %XX (upper-case hex), so that any destination
// has exactly one topic and two destinations never share one. A name must then keep
// Pub/Sub's rules (https://cloud.google.com/pubsub/docs/pubsub-basics#resource_names):
// 3 to 255 characters, starting with a letter, not starting with "goog"; a destination
// whose name breaks them (with the prefix) is refused, naming the rule.
//
// Thread-safety: pure functions.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_NAMES_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_NAMES_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket::pubsub::detail {

inline constexpr std::string_view kDefaultGroup = "default";

// `text` with every byte outside [A-Za-z0-9-_.~+] written as %XX.
std::string encode_name_part(std::string_view text);

// What is wrong with `name` as a Pub/Sub topic or subscription id, or nullopt.
std::optional<std::string> resource_name_problem(std::string_view name);

// What is wrong with `prefix` as a topic_prefix (characters outside the name
// alphabet, or too long), or nullopt.
std::optional<std::string> topic_prefix_problem(std::string_view prefix);

// The topic id of `destination` under `prefix`. Throws ConfigurationError naming the
// destination and the rule it breaks.
std::string topic_id(std::string_view prefix, std::string_view destination);

// The subscription id of `group` ("" = "default") on `topic`. Throws
// ConfigurationError naming the group and the rule it breaks.
std::string subscription_id(std::string_view topic, std::string_view group);

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_NAMES_H_
