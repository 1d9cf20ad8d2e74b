// Internal: the vector kernels behind ByteCodec::write_validated(), 16 bytes at a time
// with SSSE3 (byte_codec_ssse3.cc), 32 with AVX2 (byte_codec_avx2.cc) or 64 with AVX-512
// (byte_codec_avx512.cc), one of them chosen at run time (byte_codec.cc). All validate UTF-8 with
// the lookup method of Keiser and Lemire ("Validating UTF-8 in less than one instruction per byte",
// 2021) and escape with byte shuffles (AVX-512: byte permutes and a compress), writing exactly what
// the scalar loop writes.
//
// Thread-safety: pure functions over constants.
#ifndef DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_
#define DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_

#include <cstddef>

namespace docket::keys::detail {

// A codec's escaped set in the form the kernels test a block against at once: for an
// ASCII byte, bit h of ascii_bits[low nibble] says whether byte (h << 4 | low nibble)
// is escaped; bytes 0x80..0xFF are all escaped or none (codecs whose set splits them
// do not use the kernels). ascii_escaped says the same a byte at a time, for the
// AVX-512 kernel's 128-entry lookup: 0xFF where ASCII byte b is escaped, else 0. Plain
// C types: byte_codec_avx2.cc says why.
struct SimdEscapes {
  unsigned char ascii_bits[16] = {};
  unsigned char ascii_escaped[128] = {};
  bool high_escaped = false;
};

// Keiser and Lemire's lookup validation, as simdjson and simdutf implement it: three
// table lookups classify each byte with the byte before it, and a bit survives their AND
// exactly when the pair is one of these errors. The continuation bytes that a three- or
// four-byte lead two or three bytes back requires are checked apart. Every kernel's
// tables are built from these bits.
inline constexpr char kTooShort = 1 << 0;      // a lead or ASCII byte follows a lead byte
inline constexpr char kTooLong = 1 << 1;       // a continuation follows an ASCII byte
inline constexpr char kOverlong3 = 1 << 2;     // E0 80..9F
inline constexpr char kTooLarge = 1 << 3;      // F4 90..BF, or F5..FF followed by 90..BF
inline constexpr char kSurrogate = 1 << 4;     // ED A0..BF
inline constexpr char kOverlong2 = 1 << 5;     // C0 or C1, then a continuation
inline constexpr char kTooLarge1000 = 1 << 6;  // F5..FF 80..8F
inline constexpr char kOverlong4 = 1 << 6;     // F0 80..8F
inline constexpr char kTwoConts = static_cast<char>(1 << 7);  // a continuation follows one
inline constexpr char kCarry = kTooShort | kTooLong | kTwoConts;

// Whether this build and this CPU run each kernel (each asks the CPU every call).
bool ssse3_kernel_available() noexcept;
bool avx2_kernel_available() noexcept;
bool avx512_kernel_available() noexcept;

// A kernel: as ByteCodec::write_validated() (the same bytes written, the same room
// needed: 3 * size + kWriteSlack), for inputs of 16 bytes or more. Returns the end,
// or nullptr when `bytes` is not well-formed UTF-8. Only call one the CPU runs.
using SimdKernel = char* (*)(const SimdEscapes& escapes, const char* bytes, std::size_t size,
                             char* out) noexcept;
char* write_validated_ssse3(const SimdEscapes& escapes, const char* bytes, std::size_t size,
                            char* out) noexcept;
char* write_validated_avx2(const SimdEscapes& escapes, const char* bytes, std::size_t size,
                           char* out) noexcept;
char* write_validated_avx512(const SimdEscapes& escapes, const char* bytes, std::size_t size,
                             char* out) noexcept;

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_
