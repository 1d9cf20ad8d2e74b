// Strict UTF-8 validation.
//
// docket never repairs text: a byte string that is not well-formed UTF-8 (RFC 3629)
// is refused, never replaced or truncated, because two different inputs that were
// "repaired" to one value would then share one stored key.
//
// Thread-safety: pure functions.
#ifndef DOCKET_CORE_UTF8_H_
#define DOCKET_CORE_UTF8_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docket {

// Why a byte string is not well-formed UTF-8, and where.
struct Utf8Defect {
  enum class Kind {
    kInvalidLeadByte,         // 0xF8..0xFF, or 0xC0/0xC1 style bytes that start nothing
    kUnexpectedContinuation,  // 0x80..0xBF where a character should start
    kTruncatedSequence,       // a lead byte without all its continuation bytes
    kOverlongForm,            // a code point encoded in more bytes than it needs
    kEncodedSurrogate,        // U+D800..U+DFFF, e.g. bytes ED A0 80
    kBeyondUnicode,           // a code point above U+10FFFF
  };
  Kind kind;
  std::size_t offset;  // byte offset of the first byte of the bad sequence

  friend bool operator==(const Utf8Defect&, const Utf8Defect&) = default;
};

// Returns the first defect, or nullopt when `bytes` is well-formed UTF-8.
// Refuses truncated sequences, encoded surrogates (U+D800..U+DFFF), overlong forms
// and code points beyond U+10FFFF.
std::optional<Utf8Defect> find_utf8_defect(std::string_view bytes) noexcept;

inline bool is_valid_utf8(std::string_view bytes) noexcept {
  return !find_utf8_defect(bytes).has_value();
}

// Describes a defect for an error message: "<what> is not valid UTF-8: <reason> at
// byte <offset> (<hex of the bytes around it>)". Never echoes the raw bytes.
std::string describe_utf8_defect(std::string_view what, std::string_view bytes,
                                 const Utf8Defect& defect);

// Throws InvalidInputError with describe_utf8_defect() and what to do, when `bytes`
// is not well-formed UTF-8.
void require_valid_utf8(std::string_view what, std::string_view bytes);

// `bytes` with every byte that is not part of well-formed UTF-8 written as \xNN (two
// upper-case hex digits); well-formed text comes back unchanged. For text docket
// keeps or shows but did not write itself (a handler's or a broker's error message),
// so that recording or printing it never fails on its bytes and none is replaced.
std::string escape_invalid_utf8(std::string_view bytes);

}  // namespace docket

#endif  // DOCKET_CORE_UTF8_H_
