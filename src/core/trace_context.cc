#include "docket/core/trace_context.h"

#include <algorithm>
#include <cstddef>
#include <span>

namespace docket {
namespace {

// traceparent layout at version 00: "vv-" + 32 + "-" + 16 + "-" + "ff".
constexpr std::size_t kTraceParentLength = 55;
constexpr std::size_t kTraceIdOffset = 3;
constexpr std::size_t kParentIdOffset = 36;
constexpr std::size_t kFlagsOffset = 53;

// tracestate limits (W3C Trace Context Level 1, section 3.3).
constexpr std::size_t kMaxStateMembers = 32;
constexpr std::size_t kMaxStateLength = 512;
constexpr std::size_t kMaxSimpleKeyLength = 256;
constexpr std::size_t kMaxTenantLength = 241;
constexpr std::size_t kMaxSystemLength = 14;
constexpr std::size_t kMaxValueLength = 256;

int lower_hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  return -1;
}

// Decodes lower-case hex text of exactly 2 * out.size() characters.
bool decode_lower_hex(std::string_view text, std::span<std::uint8_t> out) noexcept {
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int high = lower_hex_value(text[2 * i]);
    const int low = lower_hex_value(text[2 * i + 1]);
    if (high < 0 || low < 0) {
      return false;
    }
    out[i] = static_cast<std::uint8_t>((high << 4) | low);
  }
  return true;
}

bool all_zero(std::span<const std::uint8_t> bytes) noexcept {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0; });
}

void append_hex(std::string& text, std::span<const std::uint8_t> bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::uint8_t b : bytes) {
    text += kHex[b >> 4];
    text += kHex[b & 0x0F];
  }
}

bool is_lcalpha(char c) noexcept {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}
bool is_key_char(char c) noexcept {
  return is_lcalpha(c) || is_digit(c) || c == '_' || c == '-' || c == '*' || c == '/';
}
bool is_ows(char c) noexcept {
  return c == ' ' || c == '\t';
}

// `first_ok` for the first character, key characters for the rest, 1..max_length long.
bool is_key_part(std::string_view part, std::size_t max_length, bool (*first_ok)(char)) noexcept {
  return !part.empty() && part.size() <= max_length && first_ok(part.front()) &&
         std::all_of(part.begin() + 1, part.end(), is_key_char);
}

// simple-key, or the multi-tenant form tenant-id "@" system-id.
bool is_state_key(std::string_view key) noexcept {
  const std::size_t at = key.find('@');
  if (at == std::string_view::npos) {
    return is_key_part(key, kMaxSimpleKeyLength, is_lcalpha);
  }
  return is_key_part(key.substr(0, at), kMaxTenantLength,
                     [](char c) { return is_lcalpha(c) || is_digit(c); }) &&
         is_key_part(key.substr(at + 1), kMaxSystemLength, is_lcalpha);
}

// 1..256 printable ASCII characters other than ',' and '='. The grammar's "no trailing
// space" needs no check: members arrive with surrounding OWS already trimmed, so a
// space before ',' is OWS, not part of the value.
bool is_state_value(std::string_view value) noexcept {
  return !value.empty() && value.size() <= kMaxValueLength &&
         std::all_of(value.begin(), value.end(),
                     [](char c) { return c >= 0x20 && c <= 0x7E && c != ',' && c != '='; });
}

std::string_view trim_ows(std::string_view text) noexcept {
  while (!text.empty() && is_ows(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_ows(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

bool is_valid_tracestate(std::string_view state) noexcept {
  if (state.size() > kMaxStateLength) {
    return false;
  }
  std::array<std::string_view, kMaxStateMembers> keys;
  std::size_t key_count = 0;
  std::size_t start = 0;
  while (start <= state.size()) {
    const std::size_t comma = std::min(state.find(',', start), state.size());
    const std::string_view member = trim_ows(state.substr(start, comma - start));
    start = comma + 1;
    if (member.empty()) {
      continue;  // empty list-members are allowed and carry nothing
    }
    const std::size_t equals = member.find('=');
    if (equals == std::string_view::npos) {
      return false;
    }
    const std::string_view key = member.substr(0, equals);
    if (!is_state_key(key) || !is_state_value(member.substr(equals + 1))) {
      return false;
    }
    if (key_count == kMaxStateMembers ||
        std::find(keys.begin(), keys.begin() + key_count, key) != keys.begin() + key_count) {
      return false;
    }
    keys[key_count++] = key;
  }
  return true;
}

}  // namespace

std::string TraceParent::to_string() const {
  std::string text;
  text.reserve(kTraceParentLength);
  append_hex(text, std::span(&version, 1));
  text += '-';
  append_hex(text, trace_id);
  text += '-';
  append_hex(text, parent_id);
  text += '-';
  append_hex(text, std::span(&flags, 1));
  return text;
}

std::optional<TraceParent> parse_traceparent(std::string_view header) noexcept {
  if (header.size() < kTraceParentLength) {
    return std::nullopt;
  }
  TraceParent parent;
  if (!decode_lower_hex(header.substr(0, 2), std::span(&parent.version, 1)) ||
      parent.version == 0xFF) {
    return std::nullopt;
  }
  // Version 00 is exactly 55 characters. A later version may append "-..." fields,
  // which this parser ignores (W3C Trace Context, "Versioning of traceparent").
  if (parent.version == 0x00
          ? header.size() != kTraceParentLength
          : header.size() > kTraceParentLength && header[kTraceParentLength] != '-') {
    return std::nullopt;
  }
  if (header[2] != '-' || header[kParentIdOffset - 1] != '-' || header[kFlagsOffset - 1] != '-') {
    return std::nullopt;
  }
  if (!decode_lower_hex(header.substr(kTraceIdOffset, 32), parent.trace_id) ||
      !decode_lower_hex(header.substr(kParentIdOffset, 16), parent.parent_id) ||
      !decode_lower_hex(header.substr(kFlagsOffset, 2), std::span(&parent.flags, 1))) {
    return std::nullopt;
  }
  if (all_zero(parent.trace_id) || all_zero(parent.parent_id)) {
    return std::nullopt;
  }
  return parent;
}

std::optional<TraceContext> parse_trace_context(std::string_view traceparent,
                                                std::string_view tracestate) noexcept {
  auto parent = parse_traceparent(traceparent);
  if (!parent) {
    return std::nullopt;
  }
  TraceContext context{*parent, {}};
  if (is_valid_tracestate(tracestate)) {
    context.state.assign(tracestate);
  }
  return context;
}

}  // namespace docket
