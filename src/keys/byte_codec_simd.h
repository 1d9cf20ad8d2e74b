// Internal: the vector kernels behind ByteCodec::write_validated(), 16 bytes at a time
// with SSSE3 (byte_codec_ssse3.cc) or 32 with AVX2 (byte_codec_avx2.cc), one of them
// chosen at run time (byte_codec.cc). Both validate UTF-8 with the lookup method of
// Keiser and Lemire ("Validating UTF-8 in less than one instruction per byte", 2021)
// and escape with byte shuffles, writing exactly what the scalar loop writes.
//
// Thread-safety: pure functions over constants.
#ifndef DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_
#define DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace docket::keys::detail {

// A codec's escaped set in the form the kernels test a block against at once: for an
// ASCII byte, bit h of ascii_bits[low nibble] says whether byte (h << 4 | low nibble)
// is escaped; bytes 0x80..0xFF are all escaped or none (codecs whose set splits them
// do not use the kernels).
struct SimdEscapes {
  std::array<unsigned char, 16> ascii_bits{};
  bool high_escaped = false;
};

// Whether this build and this CPU run each kernel (each asks the CPU every call).
bool ssse3_kernel_available() noexcept;
bool avx2_kernel_available() noexcept;

// As ByteCodec::write_validated() (same output, same room: 3 * size + kWriteSlack
// bytes), for inputs of 16 bytes or more. Only call a kernel the CPU runs.
std::optional<char*> write_validated_ssse3(const SimdEscapes& escapes, std::string_view bytes,
                                           char* out) noexcept;
// The same in C types (byte_codec_avx2.cc says why): `ascii_bits` is
// SimdEscapes::ascii_bits' 16 bytes; returns the end, or nullptr when `bytes` is not
// well-formed UTF-8.
char* write_validated_avx2(const unsigned char* ascii_bits, bool high_escaped,
                           const unsigned char* bytes, std::size_t size, char* out) noexcept;

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_
