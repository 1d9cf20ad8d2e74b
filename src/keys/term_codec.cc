#include "docket/keys/term_codec.h"

#include "keys/byte_codec.h"

namespace docket::keys {
namespace {

int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;  // lower-case hex is not canonical: the encoders never write it
}

}  // namespace

std::string percent_encode(std::string_view bytes) {
  std::string out;
  append_percent_encoded(bytes, out);
  return out;
}

void append_percent_encoded(std::string_view bytes, std::string& out) {
  detail::append_encoded(bytes, detail::percent_encoding_codec(), out);
}

std::string escape_reserved(std::string_view bytes, std::string_view also_escape) {
  std::string out;
  append_escaped_reserved(bytes, also_escape, out);
  return out;
}

void append_escaped_reserved(std::string_view bytes, std::string_view also_escape,
                             std::string& out) {
  if (also_escape.empty()) {
    detail::append_encoded(bytes, detail::reserved_codec(), out);
  } else {
    detail::append_encoded(bytes, detail::ByteCodec(detail::kReservedBytes.with(also_escape)), out);
  }
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (text.size() - i < 3) {
      return std::nullopt;
    }
    const int high = hex_value(text[i + 1]);
    const int low = hex_value(text[i + 2]);
    if (high < 0 || low < 0) {
      return std::nullopt;
    }
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

}  // namespace docket::keys
