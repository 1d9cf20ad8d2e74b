// How `docket events show` and `docket sagas show` print opaque stored bytes (an
// event's payload, a saga's state): never altered, never replaced; bytes that are not
// UTF-8 are shown in hex.
//
// With --json, a payload that is a JSON text is embedded verbatim: the output holds the
// very bytes stored, between the field's ':' and the next field, never a re-serialised
// value. Parsing and writing it again would change what is stored: a number past 64
// bits loses digits (12345678901234567890123 becomes 1.2345678901234568e+22), a
// repeated key keeps one value, 1e2 becomes 100.0 and -0 becomes 0. So the object
// around it is written here field by field (JsonObjectText), not by a JSON library's
// value, which cannot hold raw text. Embedding keeps the payload JSON for a reader
// (`jq .events[0].payload.amount`); a reader that needs the bytes exactly takes the
// text of that field.
//
// Thread-safety: values and pure functions.
#ifndef DOCKET_TOOLS_DOCKET_STORED_BYTES_H_
#define DOCKET_TOOLS_DOCKET_STORED_BYTES_H_

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

namespace docket::tool {

// A JSON object written one field at a time, in the order added. Each name is added
// once (the caller's invariant); a verbatim field's text is a JSON text.
class JsonObjectText {
 public:
  // `name` with `value` as the library writes it.
  JsonObjectText& add(std::string_view name, const nlohmann::json& value);
  // `name` with `json_text`, a JSON text (is_json_text), as it is, byte for byte.
  JsonObjectText& add_verbatim(std::string_view name, std::string_view json_text);
  // The object: "{" fields "}".
  std::string text() const;

 private:
  std::string fields_;
};

// "[" the elements, each a JSON text, joined with "," "]".
std::string json_array_text(std::span<const std::string> elements);

// Whether `bytes` are one JSON text (RFC 8259), fit to embed as they are: valid UTF-8,
// no byte order mark, accepted by a strict parser (no comments, nothing after it but
// whitespace).
bool is_json_text(std::string_view bytes);

// The bytes as fields of `into` under `name`: verbatim where they are a JSON text,
// `name`_text (a JSON string of them) where they are other UTF-8, else `name`_hex.
void put_bytes(JsonObjectText& into, std::string_view name, std::string_view bytes);

// The same bytes for a person: the text where they are UTF-8, else "hex:" and hex.
std::string printable_bytes(std::string_view bytes);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_STORED_BYTES_H_
