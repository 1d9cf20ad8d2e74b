// How `docket keys` prints a composed key: the key alone on one line, or with --json
// one JSON object on one line.
//
// JSON strings must be UTF-8. Every string printed here comes from a key or a term
// the library has already validated, so refused input never reaches the JSON writer;
// nlohmann::json's strict mode would throw rather than alter a byte if it did.
#ifndef DOCKET_TOOLS_DOCKET_KEY_OUTPUT_H_
#define DOCKET_TOOLS_DOCKET_KEY_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/keys/key.h"

namespace docket::tool {

// {"key", "bytes" (byte length), "limit" (the provider's limit for the field),
//  "provider" (command-line name), "field" (where the key lives)}.
nlohmann::json key_json(const keys::Key& key);

// Writes key_json(key) merged with `extra` when `as_json`, else key.value; then '\n'.
void print_key(const keys::Key& key, bool as_json,
               const nlohmann::json& extra = nlohmann::json::object());

// Writes `object` on one line followed by '\n'.
void print_json(const nlohmann::json& object);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_KEY_OUTPUT_H_
