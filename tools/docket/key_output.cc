#include "key_output.h"

#include <iostream>
#include <string>

namespace docket::tool {

nlohmann::json key_json(const keys::Key& key) {
  return {
      {"key", key.value},
      {"bytes", key.size_bytes()},
      {"limit", key.limit_bytes},
      {"provider", std::string(keys::provider_name(key.provider))},
      {"field", std::string(key.field)},
  };
}

void print_json(const nlohmann::json& object) {
  std::cout << object.dump() << '\n';
}

void print_key(const keys::Key& key, bool as_json, const nlohmann::json& extra) {
  if (!as_json) {
    std::cout << key.value << '\n';
    return;
  }
  nlohmann::json object = key_json(key);
  object.update(extra);
  print_json(object);
}

}  // namespace docket::tool
