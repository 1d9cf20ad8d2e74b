// How the inspection commands print stored bytes (stored_bytes.h).
#include "stored_bytes.h"

#include <string>
#include <string_view>

#include "docket/core/utf8.h"

namespace docket::tool {
namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

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

JsonObjectText& JsonObjectText::add(std::string_view name, const nlohmann::json& value) {
  return add_verbatim(name, value.dump());
}

JsonObjectText& JsonObjectText::add_verbatim(std::string_view name, std::string_view json_text) {
  if (!fields_.empty()) {
    fields_ += ',';
  }
  fields_ += nlohmann::json(std::string(name)).dump();
  fields_ += ':';
  fields_ += json_text;
  return *this;
}

std::string JsonObjectText::text() const {
  return "{" + fields_ + "}";
}

std::string json_array_text(std::span<const std::string> elements) {
  std::string out = "[";
  for (const std::string& element : elements) {
    if (out.size() > 1) {
      out += ',';
    }
    out += element;
  }
  return out + "]";
}

bool is_json_text(std::string_view bytes) {
  // The parser skips a leading byte order mark, which RFC 8259 forbids a JSON text to
  // carry and which would sit inside the object the text is embedded in.
  return is_valid_utf8(bytes) && !bytes.starts_with(kByteOrderMark) &&
         nlohmann::json::accept(bytes, /*ignore_comments=*/false);
}

void put_bytes(JsonObjectText& into, std::string_view name, std::string_view bytes) {
  if (!is_valid_utf8(bytes)) {
    into.add(std::string(name) + "_hex", hex(bytes));
  } else if (is_json_text(bytes)) {
    into.add_verbatim(name, bytes);
  } else {
    into.add(std::string(name) + "_text", std::string(bytes));
  }
}

std::string printable_bytes(std::string_view bytes) {
  return is_valid_utf8(bytes) ? std::string(bytes) : "hex:" + hex(bytes);
}

}  // namespace docket::tool
