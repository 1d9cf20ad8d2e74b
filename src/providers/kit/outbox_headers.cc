#include "providers/kit/outbox_headers.h"

#include <nlohmann/json.hpp>

#include "docket/core/error.h"

namespace docket::kit {

namespace {

InfrastructureError not_written_by_docket(std::string_view what) {
  return InfrastructureError(
      "outbox: a stored headers value is not the JSON array of [name, value] pairs docket "
      "writes (" +
      std::string(what) + "); the row was changed outside docket: restore it");
}

}  // namespace

std::string encode_headers(const std::vector<MessageHeader>& headers) {
  if (headers.empty()) {
    return {};
  }
  auto pairs = nlohmann::json::array();
  for (const MessageHeader& header : headers) {
    pairs.push_back({header.name, header.value});
  }
  return pairs.dump();
}

std::vector<MessageHeader> decode_headers(std::string_view text) {
  std::vector<MessageHeader> headers;
  if (text.empty()) {
    return headers;
  }
  const nlohmann::json pairs = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!pairs.is_array()) {
    throw not_written_by_docket(pairs.is_discarded() ? "not JSON" : "not an array");
  }
  headers.reserve(pairs.size());
  for (const nlohmann::json& pair : pairs) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
      throw not_written_by_docket("an element is not a [name, value] pair of strings");
    }
    headers.push_back({pair[0].get<std::string>(), pair[1].get<std::string>()});
  }
  return headers;
}

}  // namespace docket::kit
