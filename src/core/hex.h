// Hex digits to bytes, eight digits at a time (SWAR: one character per byte lane of a
// 64-bit word, no table and no branch per digit): stores read a UUID, and on
// PostgreSQL possibly a bytea in hex output, for every event they load.
//
// Internal to docket. Thread-safety: pure functions.
#ifndef DOCKET_SRC_CORE_HEX_H_
#define DOCKET_SRC_CORE_HEX_H_

#include <cstddef>
#include <span>
#include <string_view>

namespace docket::core {

// Decodes `digits`, an even number of hex digits in either case, two digits a byte
// (the first the high nibble), into `out`, which holds digits.size() / 2 bytes.
// False when a character is not a hex digit (or the sizes do not match); `out` is
// then partly written.
bool decode_hex(std::string_view digits, std::span<std::byte> out) noexcept;

}  // namespace docket::core

#endif  // DOCKET_SRC_CORE_HEX_H_
