// The JSON codec for typed events, over nlohmann-json: the default codec of
// HandlerRegistry::on().
//
// The event type supplies the conversions nlohmann-json looks up, e.g.
//   struct OrderPlaced { std::string id; int qty; };
//   NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, id, qty)
// or hand-written to_json / from_json found by argument-dependent lookup.
//
// Numbers from payloads docket does not control: nlohmann-json's get<Int>() converts a
// JSON number into an integer member with a plain cast, so a float outside the
// member's range (1e300, or -9.3e18 for an int64) is undefined behaviour and an
// integer outside it wraps (4294967296 into a uint32 is 0). An event type whose
// payloads come from outside reads its integer members checked, in a hand-written
// from_json (is_number_integer(), then a range check, else throw): a payload it
// throws for is refused as PayloadDecodeError. tests/fuzz/json_codec_fuzz.cc has one.
//
// A codec for T is any copyable type with
//   T decode(std::string_view payload) const;   // throws when the payload is unusable
//   std::string encode(const T& event) const;
//
// Thread-safety: stateless; safe from many threads.
#ifndef DOCKET_CORE_JSON_CODEC_H_
#define DOCKET_CORE_JSON_CODEC_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace docket {

template <class T>
struct JsonCodec {
  T decode(std::string_view payload) const { return nlohmann::json::parse(payload).get<T>(); }
  std::string encode(const T& event) const { return nlohmann::json(event).dump(); }
};

}  // namespace docket

#endif  // DOCKET_CORE_JSON_CODEC_H_
