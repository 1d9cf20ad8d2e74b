// Fuzz target for the JSON codec (docket/core/json_codec.h), the default codec of every
// typed handler, over a small event type of its own. The input is a payload:
// - JsonCodec<Probe>::decode returns a Probe or throws nlohmann-json's exception
//   (or the event type's own, a std::logic_error from get_integer below); nothing
//   else escapes and nothing crashes (the sanitizers check the conversions);
// - through a HandlerRegistry the same payload reaches the handler as the same Probe,
//   or is refused with PayloadDecodeError naming the event type and the message;
// - a decoded Probe round-trips: encode, decode gives it back, and its encoding is
//   stable (encoding the round-tripped value gives the same text).
// Any violation aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/json_codec.h"
#include "docket/core/tenant.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/memory/store.h"

namespace fuzz {

// An integer member read checked: nlohmann-json's get<Int>() casts a float outside
// Int's range (1e300, -9.3e18 into an int64) with undefined behaviour and wraps an
// integer outside it (4294967296 into a uint32 is 0), so an event type read from
// payloads it does not control reads its integers this way (json_codec.h).
template <class Int>
void get_integer(const nlohmann::json& object, const char* key, Int& value) {
  const nlohmann::json& number = object.at(key);
  if (number.is_number_unsigned()) {
    const auto unsigned_value = number.get<std::uint64_t>();
    if (std::cmp_greater(unsigned_value, std::numeric_limits<Int>::max())) {
      throw std::out_of_range(std::string(key) + " is too large");
    }
    value = static_cast<Int>(unsigned_value);
  } else if (number.is_number_integer()) {
    const auto signed_value = number.get<std::int64_t>();
    if (!std::in_range<Int>(signed_value)) {
      throw std::out_of_range(std::string(key) + " is out of range");
    }
    value = static_cast<Int>(signed_value);
  } else {
    throw std::invalid_argument(std::string(key) + " is not a whole number");
  }
}

// Every JSON kind an event carries: text, integers, a float, a flag, a list and an
// object nested in it.
struct Line {
  std::string sku;
  std::uint32_t quantity = 0;
  bool operator==(const Line&) const = default;
};
void to_json(nlohmann::json& json, const Line& line) {
  json = {{"sku", line.sku}, {"quantity", line.quantity}};
}
void from_json(const nlohmann::json& json, Line& line) {
  json.at("sku").get_to(line.sku);
  get_integer(json, "quantity", line.quantity);
}

struct Probe {
  std::string id;
  std::int64_t version = 0;
  double amount = 0;
  bool urgent = false;
  std::vector<Line> lines;
  bool operator==(const Probe&) const = default;
};
void to_json(nlohmann::json& json, const Probe& probe) {
  json = {{"id", probe.id},
          {"version", probe.version},
          {"amount", probe.amount},
          {"urgent", probe.urgent},
          {"lines", probe.lines}};
}
void from_json(const nlohmann::json& json, Probe& probe) {
  json.at("id").get_to(probe.id);
  get_integer(json, "version", probe.version);
  json.at("amount").get_to(probe.amount);
  json.at("urgent").get_to(probe.urgent);
  json.at("lines").get_to(probe.lines);
}

}  // namespace fuzz

namespace {

using fuzz::Probe;
constexpr std::string_view kEventType = "fuzz-probe";

[[noreturn]] void fail(const char* what, std::string_view payload, std::string_view seen = {}) {
  std::fprintf(stderr, "json codec fuzz: %s\n  payload: %.*s\n  seen: %.*s\n", what,
               static_cast<int>(payload.size()), payload.data(), static_cast<int>(seen.size()),
               seen.data());
  std::abort();
}

void require(bool condition, const char* what, std::string_view payload,
             std::string_view seen = {}) {
  if (!condition) {
    fail(what, payload, seen);
  }
}

// What the codec makes of `payload`: a Probe, or nullopt when it refuses.
std::optional<Probe> decode(std::string_view payload) {
  try {
    return docket::JsonCodec<Probe>{}.decode(payload);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  } catch (const std::logic_error&) {
    return std::nullopt;  // get_integer's refusal
  }
}

// What a handler registered for kEventType receives for `payload`: nullopt when the
// registry refuses it, which must be a PayloadDecodeError naming the type.
std::optional<Probe> dispatch(std::string_view payload) {
  static const std::unique_ptr<docket::InboxStore> store = docket::memory::open_store();
  std::optional<Probe> received;
  docket::HandlerRegistry registry;
  registry.on<Probe>(kEventType,
                     [&](const Probe& probe, docket::HandlerContext&) { received = probe; });
  const docket::Envelope envelope{.message_id = "fuzz-message",
                                  .event_type = std::string(kEventType),
                                  .payload = std::string(payload)};
  const auto unit = store->begin();
  const docket::TenantId tenant = docket::TenantId::default_tenant();
  docket::HandlerContext context(envelope, "fuzz", tenant, unit->handler_transaction());
  try {
    registry.run(envelope, context);
    require(received.has_value(), "the handler ran without the event", payload);
  } catch (const docket::PayloadDecodeError& error) {
    const std::string message = error.what();
    require(error.event_type() == kEventType && error.message_id() == "fuzz-message",
            "the refusal names another type or message", payload, message);
    require(message.find(kEventType) != std::string::npos, "the refusal does not name the type",
            payload, message);
    require(!received, "a refused payload reached the handler", payload);
  }
  return received;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view payload(reinterpret_cast<const char*>(data), size);
  const std::optional<Probe> decoded = decode(payload);
  require(dispatch(payload) == decoded, "the registry and the codec decode differently", payload);
  if (!decoded) {
    return 0;
  }
  const docket::JsonCodec<Probe> codec;
  const std::string encoded = codec.encode(*decoded);
  const std::optional<Probe> again = decode(encoded);
  require(again.has_value(), "a decoded value re-encodes to a refused payload", payload, encoded);
  require(*again == *decoded, "a decoded value does not round-trip", payload, encoded);
  require(codec.encode(*again) == encoded, "the encoding is not stable", payload, encoded);
  return 0;
}
