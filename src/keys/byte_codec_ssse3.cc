#include <array>
#include <cstdint>

#include "keys/byte_codec_simd.h"

#if defined(__x86_64__) || defined(__i386__)

#include <tmmintrin.h>

// Only these functions use SSSE3; the rest of docket keeps the build's baseline, and
// simd_kernel_available() asks the CPU before anything here runs.
#define DOCKET_SSSE3 __attribute__((target("ssse3")))

namespace docket::keys::detail {
namespace {

// For a 4-bit mask of which of 4 bytes are escaped: the shuffle that writes them from
// [b0 b1 b2 b3 H0 H1 H2 H3 L0 L1 L2 L3 % % % %] (each byte, its two hex digits, '%'),
// and how many bytes that writes.
struct QuarterShuffles {
  std::array<std::array<unsigned char, 16>, 16> index{};
  std::array<unsigned char, 16> length{};
};

constexpr QuarterShuffles make_quarter_shuffles() {
  QuarterShuffles shuffles;
  for (unsigned mask = 0; mask < 16; ++mask) {
    unsigned k = 0;
    for (unsigned j = 0; j < 4; ++j) {
      if ((mask >> j) & 1u) {
        shuffles.index[mask][k++] = 12;
        shuffles.index[mask][k++] = static_cast<unsigned char>(4 + j);
        shuffles.index[mask][k++] = static_cast<unsigned char>(8 + j);
      } else {
        shuffles.index[mask][k++] = static_cast<unsigned char>(j);
      }
    }
    shuffles.length[mask] = static_cast<unsigned char>(k);
    for (; k < 16; ++k) {
      shuffles.index[mask][k] = 0x80;  // pshufb writes 0
    }
  }
  return shuffles;
}

constexpr QuarterShuffles kQuarters = make_quarter_shuffles();

// Read from offset 16 - count: a shuffle that moves the last `count` of 16 bytes down
// to the first lanes and zeroes the rest.
constexpr std::array<unsigned char, 32> kMoveDown = {
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

DOCKET_SSSE3 inline __m128i splat(int byte) {
  return _mm_set1_epi8(static_cast<char>(byte));
}

DOCKET_SSSE3 inline __m128i high_nibbles(__m128i v) {
  return _mm_and_si128(_mm_srli_epi16(v, 4), splat(0x0F));
}

DOCKET_SSSE3 inline __m128i low_nibbles(__m128i v) {
  return _mm_and_si128(v, splat(0x0F));
}

// Keiser and Lemire's lookup validation (the error bits: byte_codec_simd.h).

DOCKET_SSSE3 inline __m128i special_cases(__m128i input, __m128i prev1) {
  const __m128i byte_1_high = _mm_shuffle_epi8(
      _mm_setr_epi8(kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong,
                    static_cast<char>(kTwoConts), static_cast<char>(kTwoConts),
                    static_cast<char>(kTwoConts), static_cast<char>(kTwoConts),
                    kTooShort | kOverlong2, kTooShort, kTooShort | kOverlong3 | kSurrogate,
                    kTooShort | kTooLarge | kTooLarge1000 | kOverlong4),
      high_nibbles(prev1));
  const __m128i byte_1_low = _mm_shuffle_epi8(
      _mm_setr_epi8(static_cast<char>(kCarry | kOverlong3 | kOverlong2 | kOverlong4),
                    static_cast<char>(kCarry | kOverlong2), static_cast<char>(kCarry),
                    static_cast<char>(kCarry), static_cast<char>(kCarry | kTooLarge),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000 | kSurrogate),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000),
                    static_cast<char>(kCarry | kTooLarge | kTooLarge1000)),
      low_nibbles(prev1));
  constexpr int kAfter1000 =
      kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge1000 | kOverlong4;
  constexpr int kAfter1001 = kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge;
  constexpr int kAfter101 = kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge;
  const __m128i byte_2_high = _mm_shuffle_epi8(
      _mm_setr_epi8(kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
                    kTooShort, static_cast<char>(kAfter1000), static_cast<char>(kAfter1001),
                    static_cast<char>(kAfter101), static_cast<char>(kAfter101), kTooShort,
                    kTooShort, kTooShort, kTooShort),
      high_nibbles(input));
  return _mm_and_si128(_mm_and_si128(byte_1_high, byte_1_low), byte_2_high);
}

// The running check over consecutive 16-byte blocks.
struct Utf8Check {
  __m128i error = _mm_setzero_si128();
  __m128i previous = _mm_setzero_si128();
  __m128i previous_incomplete = _mm_setzero_si128();

  DOCKET_SSSE3 void next(__m128i input) {
    if (_mm_movemask_epi8(input) == 0) {
      // All ASCII: fine, unless the block before ended inside a character.
      error = _mm_or_si128(error, previous_incomplete);
      previous_incomplete = _mm_setzero_si128();
      previous = input;
      return;
    }
    const __m128i prev1 = _mm_alignr_epi8(input, previous, 15);
    const __m128i prev2 = _mm_alignr_epi8(input, previous, 14);
    const __m128i prev3 = _mm_alignr_epi8(input, previous, 13);
    // Only 111_____ two bytes back or 1111____ three back leave bit 7 set.
    const __m128i third = _mm_subs_epu8(prev2, splat(0xE0 - 0x80));
    const __m128i fourth = _mm_subs_epu8(prev3, splat(0xF0 - 0x80));
    const __m128i must_continue = _mm_and_si128(_mm_or_si128(third, fourth), splat(0x80));
    error = _mm_or_si128(error, _mm_xor_si128(must_continue, special_cases(input, prev1)));
    // A lead byte among the last three that needs more bytes than the block has left.
    previous_incomplete =
        _mm_subs_epu8(input, _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                           static_cast<char>(0xF0 - 1), static_cast<char>(0xE0 - 1),
                                           static_cast<char>(0xC0 - 1)));
    previous = input;
  }

  DOCKET_SSSE3 bool valid_at_end() const {
    const __m128i all = _mm_or_si128(error, previous_incomplete);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(all, _mm_setzero_si128())) == 0xFFFF;
  }
};

// A bit per byte of `v`: escaped or not.
DOCKET_SSSE3 inline unsigned escape_mask(__m128i v, __m128i ascii_bits, __m128i high_escaped) {
  const __m128i high_nibble_bit =
      _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m128i bits = _mm_and_si128(_mm_shuffle_epi8(ascii_bits, low_nibbles(v)),
                                     _mm_shuffle_epi8(high_nibble_bit, high_nibbles(v)));
  const __m128i ascii_kept = _mm_cmpeq_epi8(bits, _mm_setzero_si128());
  const __m128i high = _mm_and_si128(_mm_cmplt_epi8(v, _mm_setzero_si128()), high_escaped);
  const unsigned ascii_escaped = ~static_cast<unsigned>(_mm_movemask_epi8(ascii_kept)) & 0xFFFFu;
  // A byte >= 0x80 has no bit in ascii_bits' table (its high nibble's bit is 0).
  return ascii_escaped | static_cast<unsigned>(_mm_movemask_epi8(high));
}

// Writes one quarter of a block: its 4 bytes from `source`, escaped as `quarter_mask`
// says; stores 16 bytes, of which up to 12 are spare.
DOCKET_SSSE3 inline char* write_quarter(__m128i source, unsigned quarter_mask, char* out) {
  const __m128i index =
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(kQuarters.index[quarter_mask].data()));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(source, index));
  return out + kQuarters.length[quarter_mask];
}

// Writes the 16 bytes of `v`, escaped as `mask` says; may write up to 12 bytes past the
// end it returns.
DOCKET_SSSE3 inline char* write_block(__m128i v, unsigned mask, char* out) {
  if (mask == 0) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
    return out + 16;
  }
  const __m128i hex =
      _mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
  const __m128i high_hex = _mm_shuffle_epi8(hex, high_nibbles(v));
  const __m128i low_hex = _mm_shuffle_epi8(hex, low_nibbles(v));
  // Per quarter: its bytes, their high hex digits, their low hex digits, then '%'.
  const __m128i bytes_high = _mm_unpacklo_epi32(v, high_hex);
  const __m128i lows_percent = _mm_unpacklo_epi32(low_hex, splat('%'));
  const __m128i bytes_high_2 = _mm_unpackhi_epi32(v, high_hex);
  const __m128i lows_percent_2 = _mm_unpackhi_epi32(low_hex, splat('%'));
  out = write_quarter(_mm_unpacklo_epi64(bytes_high, lows_percent), mask & 0x0Fu, out);
  out = write_quarter(_mm_unpackhi_epi64(bytes_high, lows_percent), (mask >> 4) & 0x0Fu, out);
  out = write_quarter(_mm_unpacklo_epi64(bytes_high_2, lows_percent_2), (mask >> 8) & 0x0Fu, out);
  return write_quarter(_mm_unpackhi_epi64(bytes_high_2, lows_percent_2), mask >> 12, out);
}

DOCKET_SSSE3 char* kernel(const SimdEscapes& escapes, const char* bytes, std::size_t n,
                          char* out) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes);
  const __m128i ascii_bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(escapes.ascii_bits));
  const __m128i high_escaped = escapes.high_escaped ? splat(0xFF) : _mm_setzero_si128();
  Utf8Check check;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    check.next(v);
    out = write_block(v, escape_mask(v, ascii_bits, high_escaped), out);
  }
  if (i < n) {
    // The last bytes: the input's final 16 (n >= 16) moved down so that they begin at
    // lane 0, zeros after them. Zeros are ASCII, so a character cut off at the end is
    // caught as one followed by ASCII; they are not escaped, so they are written as
    // 16 - count bytes after the real ones, and not counted.
    const auto count = static_cast<unsigned>(n - i);
    const __m128i final16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
    const __m128i down =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(kMoveDown.data() + 16 - count));
    const __m128i v = _mm_shuffle_epi8(final16, down);
    check.next(v);
    const unsigned mask = escape_mask(v, ascii_bits, high_escaped) & ((1u << count) - 1);
    out = write_block(v, mask, out) - (16 - count);
  }
  if (!check.valid_at_end()) {
    return nullptr;
  }
  return out;
}

}  // namespace

bool ssse3_kernel_available() noexcept {
  __builtin_cpu_init();  // may run before libgcc's own initializer
  return __builtin_cpu_supports("ssse3") != 0;
}

char* write_validated_ssse3(const SimdEscapes& escapes, const char* bytes, std::size_t size,
                            char* out) noexcept {
  return kernel(escapes, bytes, size, out);
}

}  // namespace docket::keys::detail

#else  // not x86: the scalar loop everywhere

namespace docket::keys::detail {

bool ssse3_kernel_available() noexcept {
  return false;
}

char* write_validated_ssse3(const SimdEscapes&, const char*, std::size_t, char*) noexcept {
  return nullptr;
}

}  // namespace docket::keys::detail

#endif
