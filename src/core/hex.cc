#include "core/hex.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

namespace docket::core {
namespace {

constexpr std::uint64_t kOnes = 0x0101010101010101;
constexpr std::uint64_t kHighBits = 0x80 * kOnes;
constexpr std::size_t kWordDigits = 8;

// Eight characters as the lanes of a word, the first in the lowest lane.
std::uint64_t load_lanes(const char* p) noexcept {
  std::uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  if constexpr (std::endian::native == std::endian::big) {
    std::uint64_t swapped = 0;
    for (std::size_t i = 0; i < sizeof word; ++i) {
      swapped = (swapped << 8) | ((word >> (8 * i)) & 0xFF);
    }
    word = swapped;
  }
  return word;
}

// Per lane, for lanes and k below 0x80: 0x80 where the lane is >= k (<= k), else 0.
// Under those bounds no lane carries or borrows into the next.
constexpr std::uint64_t lanes_at_least(std::uint64_t word, std::uint64_t k) noexcept {
  return (word + (0x80 - k) * kOnes) & kHighBits;
}
constexpr std::uint64_t lanes_at_most(std::uint64_t word, std::uint64_t k) noexcept {
  return ((0x80 + k) * kOnes - word) & kHighBits;
}

// The four bytes the eight hex digits in `word`'s lanes spell, written to `out` in
// digit order; false when a lane is not a hex digit.
bool decode_word(std::uint64_t word, std::byte* out) noexcept {
  const std::uint64_t lower = word | (0x20 * kOnes);  // letters to lower case; digits stay
  const std::uint64_t digits = lanes_at_least(word, '0') & lanes_at_most(word, '9');
  const std::uint64_t letters = lanes_at_least(lower, 'a') & lanes_at_most(lower, 'f');
  // A lane >= 0x80 would break the comparisons' bounds; it is no digit anyway.
  const bool valid = (word & kHighBits) == 0 && (digits | letters) == kHighBits;
  // '0'..'9' -> 0..9 by their low nibble; 'a'..'f' and 'A'..'F' -> 1..6, plus 9.
  const std::uint64_t nibbles = (word & (0x0F * kOnes)) + (letters >> 7) * 9;
  // Lane 2i becomes (nibble 2i << 4) | nibble 2i+1; then the even lanes close up.
  const std::uint64_t pairs = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF00FF00FF00FF;
  const std::uint64_t quads = (pairs | (pairs >> 8)) & 0x0000FFFF0000FFFF;
  const auto bytes = static_cast<std::uint32_t>(quads | (quads >> 16));
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, &bytes, sizeof bytes);
  } else {
    for (std::size_t i = 0; i < sizeof bytes; ++i) {
      out[i] = static_cast<std::byte>(bytes >> (8 * i));
    }
  }
  return valid;
}

}  // namespace

bool decode_hex(std::string_view digits, std::span<std::byte> out) noexcept {
  if (digits.size() % 2 != 0 || out.size() != digits.size() / 2) {
    return false;
  }
  // The last 2, 4 or 6 digits, if any, go through a word padded with '0' lanes, whose
  // bytes are then copied out (one decode_word call site, so that it is inlined).
  const std::size_t whole = digits.size() - digits.size() % kWordDigits;
  std::array<char, kWordDigits> tail;
  std::array<std::byte, kWordDigits / 2> tail_bytes;
  bool valid = true;
  for (std::size_t d = 0; d < digits.size(); d += kWordDigits) {
    const char* word = digits.data() + d;
    std::byte* bytes = out.data() + d / 2;
    if (d == whole) {
      tail.fill('0');
      std::memcpy(tail.data(), word, digits.size() - whole);
      word = tail.data();
      bytes = tail_bytes.data();
    }
    valid &= decode_word(load_lanes(word), bytes);
  }
  if (whole < digits.size()) {
    std::memcpy(out.data() + whole / 2, tail_bytes.data(), (digits.size() - whole) / 2);
  }
  return valid;
}

}  // namespace docket::core
