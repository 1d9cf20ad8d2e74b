// The AVX-512 kernel: 64 bytes an iteration. This one file is compiled with the AVX-512
// flags it uses (F, BW, VBMI, VBMI2, and BMI2 and POPCNT for its masks;
// src/keys/CMakeLists.txt) and runs only after avx512_kernel_available() has asked the
// CPU for each of them.
//
// As in byte_codec_avx2.cc (which says why): no inline function that another file also
// instantiates, only C types and the intrinsics, and a plain pointer returned (nullptr:
// not UTF-8).
//
// Validation is Keiser and Lemire's lookup (byte_codec_ssse3.cc explains the error
// bits), its tables repeated in the four lanes; each of the three bytes before each
// byte comes from the previous block and this one by one two-table byte permute
// (vpermt2b). (Working out the bytes two and three back on 64-bit masks instead, and
// the hex digits by arithmetic instead of vpshufb, measured 5-15% slower on Zen 4.)
// Escaping needs no table of shuffles: each 16 bytes of a block are spread to 48 byte
// slots, three a byte (the byte or '%', its high hex digit, its low hex digit), by one
// two-table byte permute with constant indices; vpcompressb then keeps each byte's
// first slot and an escaped byte's other two (a mask made from the escape mask by
// pdep), which is exactly what the 16 bytes are written as.
#include <cstddef>
#include <cstdint>

#include "keys/byte_codec_simd.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VBMI__) && \
    defined(__AVX512VBMI2__) && defined(__BMI2__) && defined(__POPCNT__)

#include <immintrin.h>

namespace docket::keys::detail {
namespace {

// The slots of one byte each: bit 3i for i in 0..15 (48 slots in all); slots 3i + 1
// and 3i + 2 take its hex digits.
constexpr std::uint64_t kFirstSlots = 0x0000'2492'4924'9249ULL;

// The hex digits are made two quarters at a time, each pair laid out as
// [high digits of quarter 2p | low digits of 2p | high of 2p + 1 | low of 2p + 1]:
// `nibbles[p]` gathers them from (high nibbles, low nibbles), for vpermt2b.
//
// For quarter q (bytes 16q..16q + 15) over (block with '%' for escaped bytes, the
// digits of quarters q & ~1 and q | 1): slot 3i takes the block's byte 16q + i, slots
// 3i + 1 and 3i + 2 its two digits (index + 64: the second table). Slots 48-63 are
// never kept.
struct SlotIndices {
  alignas(64) unsigned char nibbles[2][64];
  alignas(64) unsigned char slots[4][64];
};

constexpr SlotIndices make_slot_indices() {
  SlotIndices indices{};
  for (unsigned pair = 0; pair < 2; ++pair) {
    for (unsigned j = 0; j < 64; ++j) {
      const unsigned quarter = 2 * pair + j / 32;
      const bool low = (j / 16) % 2 == 1;
      indices.nibbles[pair][j] = static_cast<unsigned char>(16 * quarter + j % 16 + (low ? 64 : 0));
    }
  }
  for (unsigned q = 0; q < 4; ++q) {
    const unsigned digits = 64 + 32 * (q % 2);
    for (unsigned i = 0; i < 16; ++i) {
      indices.slots[q][3 * i] = static_cast<unsigned char>(16 * q + i);
      indices.slots[q][3 * i + 1] = static_cast<unsigned char>(digits + i);
      indices.slots[q][3 * i + 2] = static_cast<unsigned char>(digits + 16 + i);
    }
  }
  return indices;
}

constexpr SlotIndices kSlots = make_slot_indices();

// For vpermt2b over (previous block, this block): byte i takes the byte `count`
// places before it, i.e. index 64 - count + i (below 64: the previous block's).
struct BeforeIndices {
  alignas(64) unsigned char index[3][64];
};

constexpr BeforeIndices make_before_indices() {
  BeforeIndices indices{};
  for (unsigned count = 1; count <= 3; ++count) {
    for (unsigned i = 0; i < 64; ++i) {
      indices.index[count - 1][i] = static_cast<unsigned char>(64 - count + i);
    }
  }
  return indices;
}

constexpr BeforeIndices kBefore = make_before_indices();

inline __m512i splat(int byte) {
  return _mm512_set1_epi8(static_cast<char>(byte));
}

inline __m512i load64(const unsigned char* table) {
  return _mm512_load_si512(table);
}

inline __m512i low_nibbles(__m512i v) {
  return _mm512_and_si512(v, splat(0x0F));
}

inline __m512i high_nibbles(__m512i v) {
  return _mm512_and_si512(_mm512_srli_epi16(v, 4), splat(0x0F));
}

// A 16-entry table in all four lanes, for vpshufb (which looks up within each lane),
// built as constants (GCC 12 warns that _mm512_broadcast_i32x4 reads an undefined
// register).
struct Table {
  alignas(64) unsigned char byte[64];
};

constexpr Table table(char t0, char t1, char t2, char t3, char t4, char t5, char t6, char t7,
                      char t8, char t9, char t10, char t11, char t12, char t13, char t14,
                      char t15) {
  const char entries[16] = {t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15};
  Table t{};
  for (unsigned i = 0; i < 64; ++i) {
    t.byte[i] = static_cast<unsigned char>(entries[i % 16]);
  }
  return t;
}

// The validation's constants and the escape tables, loaded once a term.
struct Constants {
  __m512i byte_1_high;
  __m512i byte_1_low;
  __m512i byte_2_high;
  __m512i before[3];
  __m512i incomplete_max;
  __m512i hex;
  __m512i escaped_low;   // ascii_escaped[0..63]
  __m512i escaped_high;  // ascii_escaped[64..127]
  __m512i nibbles[2];
  __m512i slots[4];
  __mmask64 high_escaped;  // all ones when bytes 0x80..0xFF are escaped, else 0
};

// A lead byte among the last three that needs more bytes than the block has left:
// one above these is a lead of that length.
constexpr Table make_incomplete_max() {
  Table t{};
  for (unsigned i = 0; i < 64; ++i) {
    t.byte[i] = 0xFF;
  }
  t.byte[61] = 0xF0 - 1;
  t.byte[62] = 0xE0 - 1;
  t.byte[63] = 0xC0 - 1;
  return t;
}

constexpr char kLarge = kCarry | kTooLarge | kTooLarge1000;
constexpr char kAfter1000 =
    kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge1000 | kOverlong4;
constexpr char kAfter1001 = kTooLong | kOverlong2 | kTwoConts | kOverlong3 | kTooLarge;
constexpr char kAfter101 = kTooLong | kOverlong2 | kTwoConts | kSurrogate | kTooLarge;

constexpr Table kByte1High =
    table(kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTooLong, kTwoConts,
          kTwoConts, kTwoConts, kTwoConts, kTooShort | kOverlong2, kTooShort,
          kTooShort | kOverlong3 | kSurrogate, kTooShort | kTooLarge | kTooLarge1000 | kOverlong4);
constexpr Table kByte1Low =
    table(kCarry | kOverlong3 | kOverlong2 | kOverlong4, kCarry | kOverlong2, kCarry, kCarry,
          kCarry | kTooLarge, kLarge, kLarge, kLarge, kLarge, kLarge, kLarge, kLarge, kLarge,
          kLarge | kSurrogate, kLarge, kLarge);
constexpr Table kByte2High =
    table(kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort, kTooShort,
          kAfter1000, kAfter1001, kAfter101, kAfter101, kTooShort, kTooShort, kTooShort, kTooShort);
constexpr Table kIncompleteMax = make_incomplete_max();
constexpr Table kHex =
    table('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F');

inline Constants constants(const SimdEscapes& escapes) {
  Constants c;
  c.byte_1_high = load64(kByte1High.byte);
  c.byte_1_low = load64(kByte1Low.byte);
  c.byte_2_high = load64(kByte2High.byte);
  for (int k = 0; k < 3; ++k) {
    c.before[k] = load64(kBefore.index[k]);
  }
  c.incomplete_max = load64(kIncompleteMax.byte);
  c.hex = load64(kHex.byte);
  c.escaped_low = _mm512_loadu_si512(escapes.ascii_escaped);
  c.escaped_high = _mm512_loadu_si512(escapes.ascii_escaped + 64);
  for (int p = 0; p < 2; ++p) {
    c.nibbles[p] = load64(kSlots.nibbles[p]);
  }
  for (int q = 0; q < 4; ++q) {
    c.slots[q] = load64(kSlots.slots[q]);
  }
  c.high_escaped = escapes.high_escaped ? ~__mmask64{0} : __mmask64{0};
  return c;
}

// The running check over consecutive 64-byte blocks.
struct Utf8Check {
  __m512i error = _mm512_setzero_si512();
  __m512i previous = _mm512_setzero_si512();
  __m512i previous_incomplete = _mm512_setzero_si512();

  // `high` is the block's bytes >= 0x80, `input_high` its high nibbles.
  void next(const Constants& c, __m512i input, __m512i input_high, __mmask64 high) {
    if (high == 0) {
      // All ASCII: fine, unless the block before ended inside a character.
      error = _mm512_or_si512(error, previous_incomplete);
      previous_incomplete = _mm512_setzero_si512();
      previous = input;
      return;
    }
    const __m512i prev1 = _mm512_permutex2var_epi8(previous, c.before[0], input);
    const __m512i prev2 = _mm512_permutex2var_epi8(previous, c.before[1], input);
    const __m512i prev3 = _mm512_permutex2var_epi8(previous, c.before[2], input);
    const __m512i special =
        _mm512_and_si512(_mm512_and_si512(_mm512_shuffle_epi8(c.byte_1_high, high_nibbles(prev1)),
                                          _mm512_shuffle_epi8(c.byte_1_low, low_nibbles(prev1))),
                         _mm512_shuffle_epi8(c.byte_2_high, input_high));
    // Only 111_____ two bytes back or 1111____ three back leave bit 7 set.
    const __m512i third = _mm512_subs_epu8(prev2, splat(0xE0 - 0x80));
    const __m512i fourth = _mm512_subs_epu8(prev3, splat(0xF0 - 0x80));
    const __m512i must_continue = _mm512_and_si512(_mm512_or_si512(third, fourth), splat(0x80));
    error = _mm512_or_si512(error, _mm512_xor_si512(must_continue, special));
    previous_incomplete = _mm512_subs_epu8(input, c.incomplete_max);
    previous = input;
  }

  bool valid_at_end() const {
    return _mm512_test_epi8_mask(_mm512_or_si512(error, previous_incomplete),
                                 _mm512_or_si512(error, previous_incomplete)) == 0;
  }
};

// Writes one quarter of a block from its slots (`first`: the block with '%' for the
// escaped bytes; `digits`: its pair's hex digits), keeping `first_slots` (kFirstSlots,
// or in the last block those of its bytes) and the digits of the bytes set in
// `escaped` (16 bits). Stores 64 bytes, so overwrites up to 64 past the end.
inline char* write_quarter(__m512i slot_index, __m512i first, __m512i digits, std::uint64_t escaped,
                           std::uint64_t first_slots, char* out) {
  const __m512i slots = _mm512_permutex2var_epi8(first, slot_index, digits);
  // The escaped bytes' first slots, times 6: their two digit slots.
  const std::uint64_t keep = first_slots | _pdep_u64(escaped, kFirstSlots) * 6;
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, slots));
  return out + __builtin_popcountll(keep);
}

// Writes the block `v` (`v_high`: its high nibbles), escaping the bytes set in
// `escaped`; in the last block (kLast), only the bytes set in `valid` (a run from bit
// 0, of which `escaped` is a subset). Returns the end; overwrites up to 64 bytes past
// it.
template <bool kLast>
inline char* write_block(const Constants& c, __m512i v, __m512i v_high, __mmask64 escaped,
                         std::uint64_t valid, char* out) {
  const __m512i first = _mm512_mask_blend_epi8(escaped, v, splat('%'));
  const __m512i low = low_nibbles(v);
  const __m512i digits01 =
      _mm512_shuffle_epi8(c.hex, _mm512_permutex2var_epi8(v_high, c.nibbles[0], low));
  const __m512i digits23 =
      _mm512_shuffle_epi8(c.hex, _mm512_permutex2var_epi8(v_high, c.nibbles[1], low));
  const auto first_slots = [valid](int q) {
    return kLast ? _pdep_u64((valid >> (16 * q)) & 0xFFFFu, kFirstSlots) : kFirstSlots;
  };
  out = write_quarter(c.slots[0], first, digits01, escaped & 0xFFFFu, first_slots(0), out);
  out = write_quarter(c.slots[1], first, digits01, (escaped >> 16) & 0xFFFFu, first_slots(1), out);
  out = write_quarter(c.slots[2], first, digits23, (escaped >> 32) & 0xFFFFu, first_slots(2), out);
  return write_quarter(c.slots[3], first, digits23, escaped >> 48, first_slots(3), out);
}

// The escaped bytes of `v` (whose bytes >= 0x80 are `high`).
inline __mmask64 escape_mask(const Constants& c, __m512i v, __mmask64 high) {
  // The table lookup reads the low 7 bits, so a byte >= 0x80 finds an ASCII byte's
  // entry: high_escaped decides those.
  const __m512i entry = _mm512_permutex2var_epi8(c.escaped_low, v, c.escaped_high);
  return (_mm512_movepi8_mask(entry) & ~high) | (high & c.high_escaped);
}

}  // namespace

bool avx512_kernel_available() noexcept {
  __builtin_cpu_init();  // may run before libgcc's own initializer
  return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512bw") != 0 &&
         __builtin_cpu_supports("avx512vbmi") != 0 && __builtin_cpu_supports("avx512vbmi2") != 0 &&
         __builtin_cpu_supports("bmi2") != 0 && __builtin_cpu_supports("popcnt") != 0;
}

char* write_validated_avx512(const SimdEscapes& escapes, const char* bytes, std::size_t n,
                             char* out) noexcept {
  const Constants c = constants(escapes);
  Utf8Check check;
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i v = _mm512_loadu_si512(bytes + i);
    const __m512i v_high = high_nibbles(v);
    const __mmask64 high = _mm512_movepi8_mask(v);
    check.next(c, v, v_high, high);
    const __mmask64 escaped = escape_mask(c, v, high);
    if (escaped == 0) {
      _mm512_storeu_si512(out, v);
      out += 64;
    } else {
      out = write_block<false>(c, v, v_high, escaped, ~std::uint64_t{0}, out);
    }
  }
  if (i < n) {
    // The last 1 to 63 bytes, loaded with zeros after them (a masked load reads
    // nothing past the input). Zeros are ASCII, so a character cut off at the end is
    // caught as one followed by ASCII; they are not written (nor counted as escaped).
    const std::uint64_t valid = (std::uint64_t{1} << (n - i)) - 1;
    const __m512i v = _mm512_maskz_loadu_epi8(valid, bytes + i);
    const __m512i v_high = high_nibbles(v);
    const __mmask64 high = _mm512_movepi8_mask(v);
    check.next(c, v, v_high, high);
    const __mmask64 escaped = escape_mask(c, v, high) & valid;
    if (escaped == 0) {
      // Nothing to escape (most short terms: ids, type names): the bytes as they are,
      // and the zeros after them, which are not counted.
      _mm512_storeu_si512(out, v);
      out += n - i;
    } else {
      out = write_block<true>(c, v, v_high, escaped, valid, out);
    }
  }
  if (!check.valid_at_end()) {
    return nullptr;
  }
  return out;
}

}  // namespace docket::keys::detail

#else  // not compiled for AVX-512: the other paths everywhere

namespace docket::keys::detail {

bool avx512_kernel_available() noexcept {
  return false;
}

char* write_validated_avx512(const SimdEscapes&, const char*, std::size_t, char*) noexcept {
  return nullptr;
}

}  // namespace docket::keys::detail

#endif
