#include "transports/pubsub/pubsub_url.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <variant>

#include "core/url_credentials.h"
#include "docket/core/error.h"
#include "providers/kit/store_url_parts.h"
#include "transports/pubsub/pubsub_names.h"

namespace docket::pubsub::detail {
namespace {

constexpr std::string_view kScheme = "pubsub://";

std::optional<std::string> authority_problem(std::string_view authority, PubSubUrl& url) {
  if (authority.find('@') != std::string_view::npos) {
    return "it carries user info; docket takes the access token for Cloud Pub/Sub from "
           "DOCKET_PUBSUB_ACCESS_TOKEN, never from the URL: remove the part before '@'";
  }
  if (authority == "googleapis") {
    url.googleapis = true;
    url.endpoint = "https://pubsub.googleapis.com";
    return std::nullopt;
  }
  if (std::optional<std::string> problem =
          kit::host_port_problem(authority, "'googleapis' (the Cloud Pub/Sub service)",
                                 "(the emulator listens where its --port= says): write "
                                 "pubsub://HOST:8085?project=...")) {
    return problem;
  }
  url.endpoint = "http://" + std::string(authority);
  return std::nullopt;
}

// A whole number within [low, high], or nullopt.
std::optional<long long> number_within(std::string_view text, long long low, long long high) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < low ||
      value > high) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> parameter_problem(std::string_view name, std::string_view value,
                                             PubSubUrl& url) {
  if (name == "project") {
    if (value.empty() || value.size() > 100 || !std::all_of(value.begin(), value.end(), [](char c) {
          return std::string_view("abcdefghijklmnopqrstuvwxyz0123456789-.:").find(c) !=
                 std::string_view::npos;
        })) {
      return "project '" + core::mask_parameter_value_credentials(value) +
             "' is not a Google Cloud project id (lower-case letters, digits and '-', such as "
             "demo-project)";
    }
    url.project = value;
  } else if (name == "topic_prefix") {
    if (std::optional<std::string> problem = topic_prefix_problem(value))
      return problem;
    url.topic_prefix = value;
  } else if (name == "ack_deadline") {
    const auto seconds = number_within(value, kMinAckDeadlineSeconds, kMaxAckDeadlineSeconds);
    if (!seconds) {
      return "ack_deadline '" + std::string(value) + "' is not a whole number of seconds from " +
             std::to_string(kMinAckDeadlineSeconds) + " to " +
             std::to_string(kMaxAckDeadlineSeconds) + " (Pub/Sub's range)";
    }
    url.ack_deadline_seconds = static_cast<int>(*seconds);
  } else if (name == "max_message_size") {
    const auto bytes = number_within(value, 1, static_cast<long long>(kMaxMessageBytes));
    if (!bytes) {
      return "max_message_size '" + std::string(value) + "' is not a number of bytes from 1 to " +
             std::to_string(kMaxMessageBytes) + " (Pub/Sub's limit)";
    }
    url.max_message_bytes = static_cast<std::size_t>(*bytes);
  } else if (name == "create") {
    if (value != "true" && value != "false")
      return "create '" + std::string(value) + "' is neither true nor false";
    url.create = value == "true";
  } else {
    return "it has the unknown option '" + std::string(name) +
           "'; the options are project, topic_prefix, ack_deadline, max_message_size and "
           "create";
  }
  return std::nullopt;
}

std::variant<PubSubUrl, std::string> parse(std::string_view text) {
  auto split = kit::split_store_url(text, kScheme, "a Pub/Sub URL");
  if (auto* problem = std::get_if<std::string>(&split))
    return std::move(*problem);
  const kit::StoreUrlParts& parts = std::get<kit::StoreUrlParts>(split);
  PubSubUrl url;
  url.text = std::string(text);
  if (std::optional<std::string> problem = authority_problem(parts.authority, url))
    return std::move(*problem);
  std::vector<std::string_view> seen;
  for (const auto& [name, value] : parts.parameters) {
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      return "it names " + std::string(name) + " twice; give it once";
    seen.push_back(name);
    if (std::optional<std::string> problem = parameter_problem(name, value, url))
      return std::move(*problem);
  }
  if (url.project.empty())
    return std::string("it names no project; add ?project=<Google Cloud project id>");
  return url;
}

}  // namespace

PubSubUrl parse_pubsub_url(std::string_view text) {
  auto parsed = parse(text);
  if (auto* problem = std::get_if<std::string>(&parsed)) {
    throw ConfigurationError("Pub/Sub transport URL '" +
                             core::mask_url_credentials(text, core::UserInfoAlone::kCredential) +
                             "': " + *problem + ". Write " + std::string(kUrlForms) +
                             " (docs/pubsub.md)");
  }
  return std::get<PubSubUrl>(std::move(parsed));
}

}  // namespace docket::pubsub::detail
