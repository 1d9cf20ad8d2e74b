// Internal: the vector kernel behind ByteCodec::write_validated(), 16 bytes at a time
// (SSSE3, chosen at run time; byte_codec_ssse3.cc). It validates UTF-8 with the
// lookup method of Keiser and Lemire ("Validating UTF-8 in less than one instruction
// per byte", 2021) and escapes with byte shuffles, writing exactly what the scalar
// loop writes.
//
// Thread-safety: pure functions over constants.
#ifndef DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_
#define DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_

#include <array>
#include <optional>
#include <string_view>

namespace docket::keys::detail {

// A codec's escaped set in the form the kernel tests 16 bytes against at once: for an
// ASCII byte, bit h of ascii_bits[low nibble] says whether byte (h << 4 | low nibble)
// is escaped; bytes 0x80..0xFF are all escaped or none (codecs whose set splits them
// do not use the kernel).
struct SimdEscapes {
  std::array<unsigned char, 16> ascii_bits{};
  bool high_escaped = false;
};

// True when this build and this CPU run the kernel.
bool simd_kernel_available() noexcept;

// As ByteCodec::write_validated() (same output, same room: 3 * size + kWriteSlack
// bytes), for inputs of 16 bytes or more. Only call when simd_kernel_available().
std::optional<char*> write_validated_simd(const SimdEscapes& escapes, std::string_view bytes,
                                          char* out) noexcept;

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_BYTE_CODEC_SIMD_H_
