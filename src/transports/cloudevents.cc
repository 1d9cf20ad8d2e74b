#include "docket/transports/cloudevents.h"

#include <charconv>
#include <chrono>
#include <map>
#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/tenant.h"

namespace docket {
namespace {

constexpr std::string_view kContentTypeHeader = "content-type";

bool starts_with_ci(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) {
    return false;
  }
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(text[i]) != lower(prefix[i])) {
      return false;
    }
  }
  return true;
}

bool equals_ci(std::string_view a, std::string_view b) {
  return a.size() == b.size() && starts_with_ci(a, b);
}

// The attribute a <prefix><attribute> header names, lower case (binary mode's header
// names are case-insensitive in HTTP and in practice elsewhere).
std::string attribute_of(std::string_view name, std::string_view prefix) {
  std::string attribute(name.substr(prefix.size()));
  for (char& c : attribute) {
    c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
  }
  return attribute;
}

[[noreturn]] void refuse(std::string_view header, std::string_view what) {
  throw InvalidInputError("CloudEvents header '" + std::string(header) + "': " + std::string(what));
}

// Digits at text[at, at + n) as a number; nullopt when any is not a digit.
std::optional<int> digits(std::string_view text, std::size_t at, std::size_t n) {
  if (at + n > text.size()) {
    return std::nullopt;
  }
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + n, value);
  if (ec != std::errc{} || end != text.data() + at + n) {
    return std::nullopt;
  }
  return value;
}

// RFC 3339: YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM); fractions beyond
// microseconds are cut to microseconds (the envelope's resolution).
std::optional<Timestamp> parse_rfc3339(std::string_view text) {
  const auto year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const auto hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' || *hour > 23 ||
      *minute > 59 || *second > 60) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(*year),
                                         std::chrono::month(static_cast<unsigned>(*month)),
                                         std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok()) {
    return std::nullopt;
  }
  std::size_t at = 19;
  std::int64_t micros = 0;
  if (at < text.size() && text[at] == '.') {
    std::size_t n = 0;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++n) {
      if (n < 6) {
        micros = micros * 10 + (text[at] - '0');
      }
    }
    if (n == 0) {
      return std::nullopt;
    }
    for (; n < 6; ++n) {
      micros *= 10;
    }
  }
  std::chrono::minutes offset{0};
  const std::string_view zone = text.substr(std::min(at, text.size()));
  if (zone == "Z" || zone == "z") {
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    const auto oh = digits(zone, 1, 2), om = digits(zone, 4, 2);
    if (!oh || !om || *oh > 23 || *om > 59) {
      return std::nullopt;
    }
    offset = std::chrono::hours(*oh) + std::chrono::minutes(*om);
    if (zone[0] == '-') {
      offset = -offset;
    }
  } else {
    return std::nullopt;
  }
  return Timestamp(std::chrono::sys_days(date).time_since_epoch()) + std::chrono::hours(*hour) +
         std::chrono::minutes(*minute) + std::chrono::seconds(*second) +
         std::chrono::microseconds(micros) - offset;
}

// The attributes to_cloudevents_headers() may write (specversion ... partitionkey).
constexpr std::size_t kMaxCloudEventsAttributes = 11;
// Room for the headers a transport appends of its own (NATS: the message id and the
// expected stream), so that it does not move the vector to make it.
constexpr std::size_t kTransportHeaderRoom = 2;

}  // namespace

std::vector<MessageHeader> to_cloudevents_headers(const TransportMessage& message,
                                                  std::string_view prefix) {
  const Envelope& e = message.envelope;
  std::vector<MessageHeader> headers;
  headers.reserve(kMaxCloudEventsAttributes + 1 + message.headers.size() + kTransportHeaderRoom);
  const auto add = [&](std::string_view attribute, std::string value) {
    std::string name;
    name.reserve(prefix.size() + attribute.size());
    name.append(prefix).append(attribute);
    headers.push_back({std::move(name), std::move(value)});
  };
  add("specversion", "1.0");
  add("id", e.message_id);
  add("type", e.event_type);
  add("source", e.source.value_or(std::string(kCloudEventsNoSource)));
  add("time", format_timestamp(e.occurred_at));
  add("tenant", message.tenant.empty() ? std::string(kUntenantedSentinel) : message.tenant);
  if (e.causation_id) {
    add("causationid", *e.causation_id);
  }
  if (e.correlation_id) {
    add("correlationid", *e.correlation_id);
  }
  if (!e.traceparent.empty()) {
    add("traceparent", e.traceparent);
  }
  if (!e.tracestate.empty()) {
    add("tracestate", e.tracestate);
  }
  if (message.ordering_key) {
    add("partitionkey", *message.ordering_key);
  }
  bool has_content_type = false;
  for (const MessageHeader& header : message.headers) {
    if (header.name.empty()) {
      throw InvalidInputError("message '" + e.message_id +
                              "' has an application header with an empty name; name it");
    }
    if (starts_with_ci(header.name, prefix)) {
      throw InvalidInputError("message '" + e.message_id + "': application header '" + header.name +
                              "' starts with '" + std::string(prefix) +
                              "', which names CloudEvents attributes; rename the header");
    }
    has_content_type = has_content_type || equals_ci(header.name, kContentTypeHeader);
    headers.push_back(header);
  }
  if (!has_content_type) {
    headers.push_back({std::string(kContentTypeHeader), std::string(kDefaultContentType)});
  }
  return headers;
}

TransportMessage from_cloudevents_headers(std::span<const MessageHeader> headers,
                                          std::string payload, std::string destination,
                                          std::string_view prefix) {
  std::map<std::string, std::string, std::less<>> attributes;
  TransportMessage message{.destination = std::move(destination)};
  for (const MessageHeader& header : headers) {
    if (!starts_with_ci(header.name, prefix)) {
      continue;  // an application header: kept below, in order
    }
    if (!attributes.emplace(attribute_of(header.name, prefix), header.value).second) {
      refuse(header.name, "appears twice; a CloudEvents attribute has one value");
    }
  }
  const auto take = [&](std::string_view attribute) -> std::optional<std::string> {
    const auto it = attributes.find(attribute);
    if (it == attributes.end()) {
      return std::nullopt;
    }
    std::string value = std::move(it->second);
    attributes.erase(it);
    return value;
  };
  const auto require = [&](std::string_view attribute) {
    auto value = take(attribute);
    if (!value || value->empty()) {
      refuse(std::string(prefix) + std::string(attribute),
             "is missing or empty; a CloudEvent carries it (CloudEvents 1.0, binary mode)");
    }
    return std::move(*value);
  };
  if (const std::string version = require("specversion"); version != "1.0") {
    refuse(std::string(prefix) + "specversion",
           "is '" + version + "'; docket reads CloudEvents 1.0: send specversion 1.0");
  }
  Envelope& e = message.envelope;
  e.message_id = require("id");
  try {
    validate_message_id(std::string(prefix) + "id", e.message_id);
  } catch (const InvalidInputError& error) {
    refuse(std::string(prefix) + "id", error.what());
  }
  e.event_type = require("type");
  if (std::string source = require("source"); source != kCloudEventsNoSource) {
    e.source = std::move(source);
  }
  const std::string time = require("time");
  const auto occurred_at = parse_rfc3339(time);
  if (!occurred_at) {
    refuse(std::string(prefix) + "time",
           "is '" + time + "', not an RFC 3339 time; send e.g. 2026-01-02T03:04:05.000006Z");
  }
  e.occurred_at = *occurred_at;
  message.tenant = take("tenant").value_or(std::string(kUntenantedSentinel));
  e.causation_id = take("causationid");
  e.correlation_id = take("correlationid");
  e.traceparent = take("traceparent").value_or("");
  e.tracestate = take("tracestate").value_or("");
  message.ordering_key = take("partitionkey");
  e.payload = std::move(payload);
  // Application headers, and another producer's extensions (kept verbatim for its
  // consumers to read), in their order.
  for (const MessageHeader& header : headers) {
    if (!starts_with_ci(header.name, prefix)) {
      if (!(equals_ci(header.name, kContentTypeHeader) && header.value == kDefaultContentType)) {
        message.headers.push_back(header);
      }
    } else {
      if (attributes.contains(attribute_of(header.name, prefix))) {
        message.headers.push_back(header);
      }
    }
  }
  return message;
}

}  // namespace docket
