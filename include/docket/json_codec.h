// The JSON codec for typed events, over nlohmann-json: the default codec of
// HandlerRegistry::on().
//
// The event type supplies the conversions nlohmann-json looks up, e.g.
//   struct OrderPlaced { std::string id; int qty; };
//   NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, id, qty)
// or hand-written to_json / from_json found by argument-dependent lookup.
//
// A codec for T is any copyable type with
//   T decode(std::string_view payload) const;   // throws when the payload is unusable
//   std::string encode(const T& event) const;
//
// Thread-safety: stateless; safe from many threads.
#ifndef DOCKET_JSON_CODEC_H_
#define DOCKET_JSON_CODEC_H_

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

#endif  // DOCKET_JSON_CODEC_H_
