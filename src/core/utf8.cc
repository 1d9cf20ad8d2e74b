#include "docket/core/utf8.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "docket/core/error.h"

namespace docket {
namespace {

using Kind = Utf8Defect::Kind;

std::string_view kind_text(Kind kind) {
  switch (kind) {
    case Kind::kInvalidLeadByte:
      return "invalid lead byte";
    case Kind::kUnexpectedContinuation:
      return "unexpected continuation byte";
    case Kind::kTruncatedSequence:
      return "truncated multi-byte sequence";
    case Kind::kOverlongForm:
      return "overlong encoding";
    case Kind::kEncodedSurrogate:
      return "encoded UTF-16 surrogate (U+D800..U+DFFF)";
    case Kind::kBeyondUnicode:
      return "code point beyond U+10FFFF";
  }
  return "malformed sequence";
}

}  // namespace

std::optional<Utf8Defect> find_utf8_defect(std::string_view bytes) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    // Ids, names and keys are mostly ASCII: skip eight ASCII bytes at a time.
    if (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, p + i, sizeof word);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned char lead = p[i];
    if (lead < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    std::uint32_t cp = 0;
    std::uint32_t min = 0;
    if (lead >= 0xC0 && lead <= 0xDF) {
      length = 2, cp = lead & 0x1Fu, min = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3, cp = lead & 0x0Fu, min = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF7) {
      length = 4, cp = lead & 0x07u, min = 0x10000;
    } else if (lead <= 0xBF) {
      return Utf8Defect{Kind::kUnexpectedContinuation, i};
    } else {
      return Utf8Defect{Kind::kInvalidLeadByte, i};
    }
    for (std::size_t k = 1; k < length; ++k) {
      if (i + k >= n || (p[i + k] & 0xC0u) != 0x80u) {
        return Utf8Defect{Kind::kTruncatedSequence, i};
      }
      cp = (cp << 6) | (p[i + k] & 0x3Fu);
    }
    if (cp < min) {
      return Utf8Defect{Kind::kOverlongForm, i};
    }
    if (cp >= 0xD800 && cp <= 0xDFFF) {
      return Utf8Defect{Kind::kEncodedSurrogate, i};
    }
    if (cp > 0x10FFFF) {
      return Utf8Defect{Kind::kBeyondUnicode, i};
    }
    i += length;
  }
  return std::nullopt;
}

std::string describe_utf8_defect(std::string_view what, std::string_view bytes,
                                 const Utf8Defect& defect) {
  std::string text(what);
  text += " is not valid UTF-8: ";
  text += kind_text(defect.kind);
  text += " at byte ";
  text += std::to_string(defect.offset);
  text += " of ";
  text += std::to_string(bytes.size());
  text += " (bytes there:";
  const std::size_t end = std::min(bytes.size(), defect.offset + 4);
  for (std::size_t i = defect.offset; i < end; ++i) {
    char hex[4];
    std::snprintf(hex, sizeof hex, " %02X", static_cast<unsigned char>(bytes[i]));
    text += hex;
  }
  text += ")";
  return text;
}

void require_valid_utf8(std::string_view what, std::string_view bytes) {
  if (auto defect = find_utf8_defect(bytes)) {
    throw InvalidInputError(describe_utf8_defect(what, bytes, *defect) +
                            ". docket never repairs or truncates text; fix the value where it "
                            "is produced (a string cut mid-character is the usual cause).");
  }
}

std::string escape_invalid_utf8(std::string_view bytes) {
  std::string out;
  while (const auto defect = find_utf8_defect(bytes)) {
    out.append(bytes.substr(0, defect->offset));
    static constexpr char kHex[] = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(bytes[defect->offset]);
    out += "\\x";
    out += kHex[byte >> 4];
    out += kHex[byte & 0xF];
    bytes.remove_prefix(defect->offset + 1);
  }
  out.append(bytes);
  return out;
}

}  // namespace docket
