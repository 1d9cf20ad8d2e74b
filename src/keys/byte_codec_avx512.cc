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
// bits), its tables repeated in the four lanes; the three bytes before each byte come
// from the previous block and this one with one two-table byte permute (vpermt2b).
// Escaping needs no table of shuffles: each 16 bytes of a block are spread to 48 byte
// slots, three a byte (the byte or '%', its high hex digit, its low hex digit), by two
// byte permutes with constant indices; vpcompressb then keeps each byte's first slot
// and an escaped byte's other two, which is exactly what the 16 bytes are written as.
#include <cstddef>
#include <cstdint>

#include "keys/byte_codec_simd.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VBMI__) && \
    defined(__AVX512VBMI2__) && defined(__BMI2__) && defined(__POPCNT__)

#include <immintrin.h>

namespace docket::keys::detail {
namespace {

// The slots of one byte each: bit 3i for i in 0..15 (48 slots in all).
constexpr std::uint64_t kFirstSlots = 0x0000'2492'4924'9249ULL;

// For the 16 bytes of quarter q (bytes 16q..16q + 15) of a block: slot 3i takes byte
// 16q + i of the first table, slot 3i + 1 the same byte of the second (index + 64),
// slot 3i + 2 the same byte again (vpermb, which reads only the low 6 bits, fills it
// from a third). Slots 48-63 are never kept.
struct SlotIndices {
  alignas(64) unsigned char index[4][64];
};

constexpr SlotIndices make_slot_indices() {
  SlotIndices indices{};
  for (unsigned q = 0; q < 4; ++q) {
    for (unsigned s = 0; s < 48; ++s) {
      const unsigned byte = 16 * q + s / 3;
      indices.index[q][s] = static_cast<unsigned char>(s % 3 == 1 ? byte + 64 : byte);
    }
  }
  return indices;
}

constexpr SlotIndices kSlots = make_slot_indices();

// The slots that take a low hex digit: bit 3i + 2.
constexpr std::uint64_t kLowSlots = kFirstSlots << 2;

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

constexpr char kTooShort = 1 << 0;
constexpr char kTooLong = 1 << 1;
constexpr char kOverlong3 = 1 << 2;
constexpr char kTooLarge = 1 << 3;
constexpr char kSurrogate = 1 << 4;
constexpr char kOverlong2 = 1 << 5;
constexpr char kTooLarge1000 = 1 << 6;
constexpr char kOverlong4 = 1 << 6;
constexpr char kTwoConts = static_cast<char>(1 << 7);
constexpr char kCarry = kTooShort | kTooLong | kTwoConts;

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
  for (int q = 0; q < 4; ++q) {
    c.slots[q] = load64(kSlots.index[q]);
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

// Writes quarter `q`'s bytes whose bits are set in `valid` (16 bits, a run from bit 0),
// escaping those set in `escaped` (a subset); returns the end. Stores 64 bytes, so
// overwrites up to 64 past the end.
inline char* write_quarter(__m512i slot_index, __m512i first, __m512i high_hex, __m512i low_hex,
                           std::uint64_t escaped, std::uint64_t valid, char* out) {
  const __m512i slots = _mm512_mask_permutexvar_epi8(
      _mm512_permutex2var_epi8(first, slot_index, high_hex), kLowSlots, slot_index, low_hex);
  const std::uint64_t triple = _pdep_u64(escaped, kFirstSlots);
  const std::uint64_t keep = _pdep_u64(valid, kFirstSlots) | triple << 1 | triple << 2;
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, slots));
  return out + __builtin_popcountll(keep);
}

// Writes the block `v`'s bytes whose bits are set in `valid` (a run from bit 0),
// escaping those set in `escaped` (a subset of `valid`); returns the end. Overwrites
// up to 64 bytes past the end.
inline char* write_block(const Constants& c, __m512i v, __m512i v_high, __mmask64 escaped,
                         std::uint64_t valid, char* out) {
  const __m512i first = _mm512_mask_blend_epi8(escaped, v, splat('%'));
  const __m512i high_hex = _mm512_shuffle_epi8(c.hex, v_high);
  const __m512i low_hex = _mm512_shuffle_epi8(c.hex, low_nibbles(v));
  out =
      write_quarter(c.slots[0], first, high_hex, low_hex, escaped & 0xFFFFu, valid & 0xFFFFu, out);
  out = write_quarter(c.slots[1], first, high_hex, low_hex, (escaped >> 16) & 0xFFFFu,
                      (valid >> 16) & 0xFFFFu, out);
  out = write_quarter(c.slots[2], first, high_hex, low_hex, (escaped >> 32) & 0xFFFFu,
                      (valid >> 32) & 0xFFFFu, out);
  return write_quarter(c.slots[3], first, high_hex, low_hex, escaped >> 48, valid >> 48, out);
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
      out = write_block(c, v, v_high, escaped, ~std::uint64_t{0}, out);
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
    out = write_block(c, v, v_high, escape_mask(c, v, high) & valid, valid, out);
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
