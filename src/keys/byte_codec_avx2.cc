// The AVX2 kernel: byte_codec_ssse3.cc's method, 32 bytes an iteration. This one file is
// compiled with -mavx2 (src/keys/CMakeLists.txt) and runs only after avx2_kernel_available()
// has asked the CPU.
//
// Because the whole file is compiled for AVX2, it instantiates no inline function that
// another file also instantiates (no std::optional, std::array or std::string_view): the
// linker keeps one copy of such a function, and it could be this file's AVX2 one, run
// by a CPU without AVX2. Only C types and the intrinsics (always inlined) appear below,
// and the kernel returns a plain pointer (nullptr: not UTF-8).
#include <cstddef>
#include <cstdint>

#include "keys/byte_codec_simd.h"

#if defined(__AVX2__)

#include <immintrin.h>

namespace docket::keys::detail {
namespace {

// For an 8-bit mask of which bytes of two quarters (4 bytes each) are escaped, the
// first quarter's in bits 0-3: the shuffle that writes the first quarter from lane 0
// and the second from lane 1, each lane being [b0 b1 b2 b3 H0 H1 H2 H3 L0 L1 L2 L3 % % % %]
// (its 4 bytes, their high and low hex digits, '%'); and what the first quarter writes
// (low byte) and both write (high byte), so that one load gives both offsets.
struct PairShuffles {
  alignas(32) unsigned char index[256][32];
  std::uint16_t lengths[256];
};

constexpr PairShuffles make_pair_shuffles() {
  PairShuffles shuffles{};
  unsigned char quarter[16][16] = {};
  unsigned quarter_length[16] = {};
  for (unsigned mask = 0; mask < 16; ++mask) {
    unsigned k = 0;
    for (unsigned j = 0; j < 4; ++j) {
      if ((mask >> j) & 1u) {
        quarter[mask][k++] = 12;
        quarter[mask][k++] = static_cast<unsigned char>(4 + j);
        quarter[mask][k++] = static_cast<unsigned char>(8 + j);
      } else {
        quarter[mask][k++] = static_cast<unsigned char>(j);
      }
    }
    quarter_length[mask] = k;
    for (; k < 16; ++k) {
      quarter[mask][k] = 0x80;  // vpshufb writes 0
    }
  }
  for (unsigned mask = 0; mask < 256; ++mask) {
    for (unsigned k = 0; k < 16; ++k) {
      shuffles.index[mask][k] = quarter[mask & 0x0Fu][k];
      shuffles.index[mask][16 + k] = quarter[mask >> 4][k];
    }
    const unsigned first = quarter_length[mask & 0x0Fu];
    shuffles.lengths[mask] =
        static_cast<std::uint16_t>(first | (first + quarter_length[mask >> 4]) << 8);
  }
  return shuffles;
}

constexpr PairShuffles kPairs = make_pair_shuffles();

// Read from offset 16 - count: a shuffle that moves the last `count` (0 to 16) of 16
// bytes down to the first lanes and zeroes the rest.
alignas(32) constexpr unsigned char kMoveDown[32] = {
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,   12,   13,   14,   15,
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80};

inline __m256i splat(int byte) {
  return _mm256_set1_epi8(static_cast<char>(byte));
}

inline __m256i high_nibbles(__m256i v) {
  return _mm256_and_si256(_mm256_srli_epi16(v, 4), splat(0x0F));
}

inline __m256i low_nibbles(__m256i v) {
  return _mm256_and_si256(v, splat(0x0F));
}

// A 16-entry table in both lanes, for vpshufb (which looks up within each lane).
inline __m256i table(char t0, char t1, char t2, char t3, char t4, char t5, char t6, char t7,
                     char t8, char t9, char t10, char t11, char t12, char t13, char t14, char t15) {
  return _mm256_setr_epi8(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t0,
                          t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15);
}

// Keiser and Lemire's lookup validation (the error bits: byte_codec_simd.h); the tables
// are the SSSE3 kernel's, repeated in both lanes.
inline __m256i special_cases(__m256i input, __m256i prev1) {
  constexpr char kLarge = kCarry | kTooLarge | kTooLarge1000;
  const __m256i byte_1_high = _mm256_shuffle_epi8(
      table(kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong,
            kTwoConts, kTwoConts, kTwoConts, kTwoConts, kTooShort | kOverlong2, kTooShort,
            kTooShort | kOverlong3 | kSurrogate,
            kTooShort | kTooLarge | kTooLarge1000 | kOverlong4),
      high_nibbles(prev1));
  const __m256i byte_1_low = _mm256_shuffle_epi8(
      table(kCarry | kOverlong3 | kOverlong2 | kOverlong4, kCarry | kOverlong2, kCarry, kCarry,
            kCarry | kTooLarge, kLarge, kLarge, kLarge, kLarge, kLarge, kLarge, kLarge, kLarge,
            kLarge | kSurrogate, kLarge, kLarge),
      low_nibbles(prev1));
  constexpr char kAfter1000 =
      kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge1000 | kOverlong4;
  constexpr char kAfter1001 = kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge;
  constexpr char kAfter101 = kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge;
  const __m256i byte_2_high =
      _mm256_shuffle_epi8(table(kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
                                kTooShort, kTooShort, kAfter1000, kAfter1001, kAfter101, kAfter101,
                                kTooShort, kTooShort, kTooShort, kTooShort),
                          high_nibbles(input));
  return _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);
}

// The 32 bytes that end `count` bytes into `input`, counting from the end of `previous`
// (count 1 to 3): vpalignr works within lanes, so lane 0 takes its start from the top
// of `previous` and lane 1 from the top of `input`'s lane 0.
template <int kCount>
inline __m256i before(__m256i input, __m256i previous) {
  const __m256i straddle = _mm256_permute2x128_si256(previous, input, 0x21);
  return _mm256_alignr_epi8(input, straddle, 16 - kCount);
}

// The running check over consecutive 32-byte blocks.
struct Utf8Check {
  __m256i error = _mm256_setzero_si256();
  __m256i previous = _mm256_setzero_si256();
  __m256i previous_incomplete = _mm256_setzero_si256();

  void next(__m256i input) {
    if (_mm256_movemask_epi8(input) == 0) {
      // All ASCII: fine, unless the block before ended inside a character.
      error = _mm256_or_si256(error, previous_incomplete);
      previous_incomplete = _mm256_setzero_si256();
      previous = input;
      return;
    }
    const __m256i prev1 = before<1>(input, previous);
    const __m256i prev2 = before<2>(input, previous);
    const __m256i prev3 = before<3>(input, previous);
    // Only 111_____ two bytes back or 1111____ three back leave bit 7 set.
    const __m256i third = _mm256_subs_epu8(prev2, splat(0xE0 - 0x80));
    const __m256i fourth = _mm256_subs_epu8(prev3, splat(0xF0 - 0x80));
    const __m256i must_continue = _mm256_and_si256(_mm256_or_si256(third, fourth), splat(0x80));
    error = _mm256_or_si256(error, _mm256_xor_si256(must_continue, special_cases(input, prev1)));
    // A lead byte among the last three that needs more bytes than the block has left.
    const __m256i max =
        _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(0xF0 - 1),
                         static_cast<char>(0xE0 - 1), static_cast<char>(0xC0 - 1));
    previous_incomplete = _mm256_subs_epu8(input, max);
    previous = input;
  }

  bool valid_at_end() const {
    const __m256i all = _mm256_or_si256(error, previous_incomplete);
    return _mm256_testz_si256(all, all) != 0;
  }
};

// A bit per byte of `v`: escaped or not.
inline unsigned escape_mask(__m256i v, __m256i ascii_bits, __m256i high_escaped) {
  const __m256i high_nibble_bit = table(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i bits = _mm256_and_si256(_mm256_shuffle_epi8(ascii_bits, low_nibbles(v)),
                                        _mm256_shuffle_epi8(high_nibble_bit, high_nibbles(v)));
  const __m256i ascii_kept = _mm256_cmpeq_epi8(bits, _mm256_setzero_si256());
  const __m256i high = _mm256_and_si256(v, high_escaped);
  // A byte >= 0x80 has no bit in ascii_bits' table (its high nibble's bit is 0); its
  // own top bit, kept or cleared by high_escaped, says whether it is escaped.
  return ~static_cast<unsigned>(_mm256_movemask_epi8(ascii_kept)) |
         static_cast<unsigned>(_mm256_movemask_epi8(high));
}

// The quarters (4 bytes each) of a 32-byte block, ready to shuffle: pair[g] holds
// quarter 2g in lane 0 and quarter 2g + 1 in lane 1, each as its bytes, their high
// hex digits, their low hex digits, then '%'.
struct QuarterPairs {
  __m256i pair[4];
};

inline QuarterPairs quarter_pairs(__m256i v) {
  // Dwords (quarters) 0 2 4 6 to lane 0 and 1 3 5 7 to lane 1: the in-lane unpacks
  // below then put quarters 2g and 2g + 1 side by side in one register.
  const __m256i spread = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
  const __m256i hex =
      table('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');
  const __m256i high_hex = _mm256_shuffle_epi8(hex, high_nibbles(spread));
  const __m256i low_hex = _mm256_shuffle_epi8(hex, low_nibbles(spread));
  const __m256i bytes_high = _mm256_unpacklo_epi32(spread, high_hex);
  const __m256i lows_percent = _mm256_unpacklo_epi32(low_hex, splat('%'));
  const __m256i bytes_high_2 = _mm256_unpackhi_epi32(spread, high_hex);
  const __m256i lows_percent_2 = _mm256_unpackhi_epi32(low_hex, splat('%'));
  return {{_mm256_unpacklo_epi64(bytes_high, lows_percent),
           _mm256_unpackhi_epi64(bytes_high, lows_percent),
           _mm256_unpacklo_epi64(bytes_high_2, lows_percent_2),
           _mm256_unpackhi_epi64(bytes_high_2, lows_percent_2)}};
}

// Writes 8 bytes, two quarters, escaped as the 8-bit `mask` says; stores 16 bytes a
// quarter, of which up to 12 are spare.
inline char* write_pair(__m256i pair, unsigned mask, char* out) {
  const __m256i index = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPairs.index[mask]));
  const __m256i written = _mm256_shuffle_epi8(pair, index);
  const unsigned lengths = kPairs.lengths[mask];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(written));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (lengths & 0xFFu)),
                   _mm256_extracti128_si256(written, 1));
  return out + (lengths >> 8);
}

inline char* write_block(__m256i v, unsigned mask, char* out) {
  if (mask == 0) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
    return out + 32;
  }
  const QuarterPairs pairs = quarter_pairs(v);
  out = write_pair(pairs.pair[0], mask & 0xFFu, out);
  out = write_pair(pairs.pair[1], (mask >> 8) & 0xFFu, out);
  out = write_pair(pairs.pair[2], (mask >> 16) & 0xFFu, out);
  return write_pair(pairs.pair[3], mask >> 24, out);
}

inline __m128i move_down(__m128i final16, unsigned count) {
  const __m128i down = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kMoveDown + 16 - count));
  return _mm_shuffle_epi8(final16, down);
}

}  // namespace

bool avx2_kernel_available() noexcept {
  __builtin_cpu_init();  // may run before libgcc's own initializer
  return __builtin_cpu_supports("avx2") != 0;
}

char* write_validated_avx2(const SimdEscapes& escapes, const char* bytes, std::size_t n,
                           char* out) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes);
  const __m256i ascii_bits = _mm256_broadcastsi128_si256(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(escapes.ascii_bits)));
  const __m256i high_escaped = escapes.high_escaped ? splat(0xFF) : _mm256_setzero_si256();
  Utf8Check check;
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
    check.next(v);
    out = write_block(v, escape_mask(v, ascii_bits, high_escaped), out);
  }
  if (i < n) {
    // The last 1 to 31 bytes, at the start of a block with zeros after them, made
    // without a branch on their number (which varies from term to term, so would be
    // mispredicted): lane 0 is the 16 bytes at i, or (fewer than 16 left) the input's
    // final 16 moved down; lane 1 is what is left after 16, moved down from the final
    // 16, or zeros (n >= 16, so the final 16 are in the input). Zeros are ASCII, so a
    // character cut off at the end is caught as one followed by ASCII; they are not
    // escaped, so the half blocks holding real bytes are written whole, the zeros as
    // one byte each after the real bytes, and not counted. One branch, on whether
    // lane 1 holds any: at most 15 zeros and 12 spare bytes pass the end.
    const auto count = static_cast<unsigned>(n - i);
    const unsigned first = count < 16 ? count : 16;
    const unsigned second = count - first;
    const std::size_t first_at = count < 16 ? n - 16 : i;
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + first_at));
    const __m128i final16 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
    const __m256i v = _mm256_setr_m128i(move_down(low, first), move_down(final16, second));
    check.next(v);
    const unsigned mask = escape_mask(v, ascii_bits, high_escaped) & ((1u << count) - 1);
    const QuarterPairs pairs = quarter_pairs(v);
    out = write_pair(pairs.pair[0], mask & 0xFFu, out);
    out = write_pair(pairs.pair[1], (mask >> 8) & 0xFFu, out);
    if (second != 0) {
      out = write_pair(pairs.pair[2], (mask >> 16) & 0xFFu, out);
      out = write_pair(pairs.pair[3], mask >> 24, out);
    }
    out -= (0u - count) & 15u;  // the zeros written after the real bytes
  }
  if (!check.valid_at_end()) {
    return nullptr;
  }
  return out;
}

}  // namespace docket::keys::detail

#else  // not compiled for AVX2: the other paths everywhere

namespace docket::keys::detail {

bool avx2_kernel_available() noexcept {
  return false;
}

char* write_validated_avx2(const SimdEscapes&, const char*, std::size_t, char*) noexcept {
  return nullptr;
}

}  // namespace docket::keys::detail

#endif
