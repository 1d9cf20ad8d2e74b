// Internal: a term escape as a byte table. Composing a key takes two passes over each
// term and allocates once: validated_encoded_size() checks the UTF-8 and measures the
// escaped size in one pass, the key's string is sized exactly, and write() fills it.
//
// Thread-safety: immutable after construction (the codecs are constexpr constants).
#ifndef DOCKET_SRC_KEYS_BYTE_CODEC_H_
#define DOCKET_SRC_KEYS_BYTE_CODEC_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "keys/byte_codec_simd.h"

namespace docket::keys::detail {

// The bytes a codec escapes as %XX. Every set used for a key term contains '%' (so a
// '%' in a key always begins an escape) and ':' (so a raw ':' is always a separator);
// that is what makes percent_decode() the inverse of every codec.
class ByteSet {
 public:
  constexpr ByteSet() = default;

  // Every byte except RFC 3986's unreserved A-Z a-z 0-9 - . _ ~.
  static constexpr ByteSet all_but_unreserved() {
    ByteSet set;
    for (int b = 0; b < 256; ++b) {
      const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                              (b >= '0' && b <= '9') || b == '-' || b == '.' || b == '_' ||
                              b == '~';
      set.bits_[static_cast<std::size_t>(b)] = !unreserved;
    }
    return set;
  }

  constexpr ByteSet with(std::string_view bytes) const {
    ByteSet set = *this;
    for (char c : bytes) {
      set.bits_[static_cast<unsigned char>(c)] = true;
    }
    return set;
  }

  constexpr ByteSet with_range(unsigned char first, unsigned char last) const {
    ByteSet set = *this;
    for (unsigned b = first; b <= last; ++b) {
      set.bits_[b] = true;
    }
    return set;
  }

  constexpr bool contains(unsigned char byte) const { return bits_[byte]; }

 private:
  std::array<bool, 256> bits_{};
};

// Full percent-encoding (RFC 3986) and the narrow escape ('%' and ':'), from which
// every provider's escape is made.
inline constexpr ByteSet kPercentEncodedBytes = ByteSet::all_but_unreserved();
inline constexpr ByteSet kReservedBytes = ByteSet{}.with("%:");

// Writes each byte of a ByteSet as %XX (upper-case hex), every other byte as itself.
class ByteCodec {
 public:
  constexpr explicit ByteCodec(const ByteSet& escaped) {
    constexpr char kHexDigits[] = "0123456789ABCDEF";
    for (unsigned b = 0; b < 256; ++b) {
      if (escaped.contains(static_cast<unsigned char>(b))) {
        entries_[b] = {'%', kHexDigits[b >> 4], kHexDigits[b & 0x0F], 3};
      } else {
        entries_[b] = {static_cast<char>(b), 0, 0, 1};
      }
    }
    for (unsigned low = 0; low < 16; ++low) {
      for (unsigned high = 0; high < 8; ++high) {
        if (escaped.contains(static_cast<unsigned char>(high << 4 | low))) {
          simd_.ascii_bits[low] |= static_cast<unsigned char>(1u << high);
          simd_.ascii_escaped[high << 4 | low] = 0xFF;
        }
      }
    }
    simd_.high_escaped = escaped.contains(0x80);
    for (unsigned b = 0x80; b < 256; ++b) {
      simd_usable_ =
          simd_usable_ && escaped.contains(static_cast<unsigned char>(b)) == simd_.high_escaped;
    }
  }

  // Every byte is written as at most this many.
  static constexpr std::size_t kMaxExpansion = 3;
  // write_validated() may write up to this many bytes past the end it returns (the
  // AVX-512 kernel stores 64 bytes at a time).
  static constexpr std::size_t kWriteSlack = 64;

  // The size of `bytes` once escaped.
  std::size_t encoded_size(std::string_view bytes) const noexcept;

  // The size of `bytes` once escaped, or nullopt when `bytes` is not well-formed UTF-8
  // (RFC 3629, as find_utf8_defect() decides), in one pass.
  std::optional<std::size_t> validated_encoded_size(std::string_view bytes) const noexcept;

  // Writes `bytes` escaped at `out`, exactly encoded_size(bytes) bytes (nothing
  // beyond them); returns the end.
  char* write(std::string_view bytes, char* out) const noexcept;

  // Validates `bytes` and writes them escaped at `out` in the same pass: returns the
  // end, or nullptr when `bytes` is not well-formed UTF-8 (what was written is then
  // garbage). `out` needs room for kMaxExpansion * bytes.size() + kWriteSlack bytes.
  // Terms of kSimdMinBytes or more take write_path() (a vector kernel where the CPU has
  // one, byte_codec_simd.h), others write_validated_scalar(); all write the same.
  // (A plain pointer, not std::optional: GCC returns an optional<char*> through the
  // stack, and reading it back whole after its flag byte was stored stalls each call.)
  char* write_validated(std::string_view bytes, char* out) const noexcept;
  char* write_validated_scalar(std::string_view bytes, char* out) const noexcept;

  // The kernel's form of this codec, and whether it can use it.
  const SimdEscapes& simd_escapes() const noexcept { return simd_; }
  bool simd_usable() const noexcept { return simd_usable_; }

  static constexpr std::size_t kSimdMinBytes = 16;

 private:
  // Per byte: what it is written as (1 or 3 bytes), then that length in the last byte,
  // so that one 4-byte copy writes any entry.
  std::array<std::array<char, 4>, 256> entries_{};
  SimdEscapes simd_{};
  bool simd_usable_ = true;
};

// How write_validated() writes a term of ByteCodec::kSimdMinBytes or more (shorter
// ones, and codecs that cannot use the kernels, always take the scalar loop).
enum class WritePath {
  kScalar,  // write_validated_scalar()
  kSsse3,   // 16 bytes an iteration (byte_codec_ssse3.cc)
  kAvx2,    // 32 bytes an iteration (byte_codec_avx2.cc)
  kAvx512,  // 64 bytes an iteration (byte_codec_avx512.cc)
};

// Whether this build and this CPU run `path` (kScalar always).
bool write_path_available(WritePath path) noexcept;

// The path write_validated() takes: the fastest available one, chosen once during
// static initialisation (kScalar before that), unless use_write_path() chose another.
WritePath write_path() noexcept;

// Makes write_validated() take `path`, which must be available; false (and nothing
// changed) when it is not. For the tests, which compare every path with a reference;
// call it while no other thread composes a key.
bool use_write_path(WritePath path) noexcept;

// The kernel write_validated() calls, nullptr for the scalar loop: chosen during static
// initialisation (a key composed by a static initializer that runs first takes the
// scalar loop, which writes the same bytes), or by use_write_path(). Relaxed: every
// value it holds writes the same bytes, so a thread that sees an older one is still
// right. Read inline, so that a term costs one call.
extern constinit std::atomic<SimdKernel> active_simd_kernel;

inline char* ByteCodec::write_validated(std::string_view bytes, char* out) const noexcept {
  if (bytes.size() >= kSimdMinBytes && simd_usable_) {
    if (const SimdKernel kernel = active_simd_kernel.load(std::memory_order_relaxed)) {
      return kernel(simd_, bytes.data(), bytes.size(), out);
    }
  }
  return write_validated_scalar(bytes, out);
}

// Full percent-encoding (kPercentEncodedBytes) and the narrow escape (kReservedBytes).
const ByteCodec& percent_encoding_codec() noexcept;
const ByteCodec& reserved_codec() noexcept;

// Appends `bytes` escaped by `codec` to `out`, growing it once.
void append_encoded(std::string_view bytes, const ByteCodec& codec, std::string& out);

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_BYTE_CODEC_H_
