// How `docket events show` and `docket sagas show` print opaque stored bytes (an
// event's payload, a saga's state): never altered, never replaced; bytes that are not
// UTF-8 are shown in hex.
#ifndef DOCKET_TOOLS_DOCKET_STORED_BYTES_H_
#define DOCKET_TOOLS_DOCKET_STORED_BYTES_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace docket::tool {

// The bytes as JSON fields of `into` under `name`: the parsed JSON where the bytes are
// a JSON text, else `name`_text where they are UTF-8, else `name`_hex.
void put_bytes(nlohmann::json& into, std::string_view name, std::string_view bytes);

// The same bytes for a person: the text where they are UTF-8, else "hex:" and hex.
std::string printable_bytes(std::string_view bytes);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_STORED_BYTES_H_
