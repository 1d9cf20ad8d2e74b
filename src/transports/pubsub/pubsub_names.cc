#include "transports/pubsub/pubsub_names.h"

#include <algorithm>

#include "docket/core/error.h"

namespace docket::pubsub::detail {
namespace {

constexpr std::size_t kMinNameBytes = 3;
constexpr std::size_t kMaxNameBytes = 255;

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_plain(char c) {
  return is_letter(c) || (c >= '0' && c <= '9') ||
         std::string_view("-_.~+").find(c) != std::string_view::npos;
}

}  // namespace

std::string encode_name_part(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  encoded.reserve(text.size());
  for (const char c : text) {
    if (is_plain(c)) {
      encoded.push_back(c);
    } else {
      const auto byte = static_cast<unsigned char>(c);
      encoded.push_back('%');
      encoded.push_back(kHex[byte >> 4]);
      encoded.push_back(kHex[byte & 0xF]);
    }
  }
  return encoded;
}

std::optional<std::string> resource_name_problem(std::string_view name) {
  if (name.size() < kMinNameBytes || name.size() > kMaxNameBytes)
    return "it is " + std::to_string(name.size()) + " characters long; Pub/Sub takes 3 to 255";
  if (!is_letter(name.front()))
    return std::string("it does not start with a letter, as Pub/Sub requires");
  if (name.starts_with("goog"))
    return std::string("it starts with \"goog\", which Pub/Sub reserves");
  return std::nullopt;
}

std::optional<std::string> topic_prefix_problem(std::string_view prefix) {
  if (prefix.size() > 100)
    return "topic_prefix is " + std::to_string(prefix.size()) + " characters; give at most 100";
  if (!std::all_of(prefix.begin(), prefix.end(), is_plain)) {
    return "topic_prefix '" + std::string(prefix) +
           "' holds a character Pub/Sub names cannot; use letters, digits and - _ . ~ +";
  }
  return std::nullopt;
}

std::string topic_id(std::string_view prefix, std::string_view destination) {
  std::string id = std::string(prefix) + encode_name_part(destination);
  if (destination.empty()) {
    throw ConfigurationError("Pub/Sub transport: a destination is empty; name the topic");
  }
  if (std::optional<std::string> problem = resource_name_problem(id)) {
    throw ConfigurationError("Pub/Sub transport: destination '" + std::string(destination) +
                             "' maps to topic '" + id + "', which Pub/Sub refuses: " + *problem +
                             ". Rename the destination or set topic_prefix in the URL");
  }
  return id;
}

std::string subscription_id(std::string_view topic, std::string_view group) {
  std::string id =
      std::string(topic) + "-" + encode_name_part(group.empty() ? kDefaultGroup : group);
  if (std::optional<std::string> problem = resource_name_problem(id)) {
    throw ConfigurationError("Pub/Sub transport: consumer group '" + std::string(group) +
                             "' of topic '" + std::string(topic) + "' maps to subscription '" + id +
                             "', which Pub/Sub refuses: " + *problem +
                             ". Choose a shorter group or destination");
  }
  return id;
}

}  // namespace docket::pubsub::detail
