// How the inspection commands print stored bytes (stored_bytes.h).
#include "stored_bytes.h"

#include <string>
#include <string_view>

#include "docket/core/utf8.h"

namespace docket::tool {
namespace {

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kDigits[byte >> 4]);
    out.push_back(kDigits[byte & 0x0f]);
  }
  return out;
}

}  // namespace

void put_bytes(nlohmann::json& into, std::string_view name, std::string_view bytes) {
  if (!is_valid_utf8(bytes)) {
    into[std::string(name) + "_hex"] = hex(bytes);
    return;
  }
  nlohmann::json parsed = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    into[std::string(name) + "_text"] = std::string(bytes);
  } else {
    into[std::string(name)] = std::move(parsed);
  }
}

std::string printable_bytes(std::string_view bytes) {
  return is_valid_utf8(bytes) ? std::string(bytes) : "hex:" + hex(bytes);
}

}  // namespace docket::tool
