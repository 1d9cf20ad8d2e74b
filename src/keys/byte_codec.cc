#include "keys/byte_codec.h"

#include <atomic>
#include <cstdint>
#include <cstring>

namespace docket::keys::detail {
namespace {

// Strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) as
// a DFA whose whole transition row for a byte is one 64-bit word: state s's successor
// is the 6-bit field at bit s, and every state is stored as its own bit offset (6 * n).
// A step is then one shift, `row[byte] >> state`, with no table walk that depends on
// the previous step's load; the low 6 bits are the new state (the shift counts only
// them, so garbage above is harmless until the end).
enum Utf8State : unsigned {
  kAccept,       // between characters
  kOneMore,      // one continuation byte 80..BF left
  kTwoMore,      // two continuation bytes 80..BF left
  kAfterE0,      // next A0..BF (80..9F would be overlong), then one more
  kAfterED,      // next 80..9F (A0..BF would encode a surrogate), then one more
  kAfterF0,      // next 90..BF (80..8F would be overlong), then two more
  kAfterF1ToF3,  // next 80..BF, then two more
  kAfterF4,      // next 80..8F (90.. would pass U+10FFFF), then two more
  kError,        // stays here
  kStateCount,
};

constexpr unsigned utf8_successor(unsigned state, unsigned byte) {
  const auto in = [byte](unsigned low, unsigned high) { return byte >= low && byte <= high; };
  switch (state) {
    case kAccept:
      if (byte < 0x80) {
        return kAccept;
      }
      if (in(0xC2, 0xDF)) {
        return kOneMore;
      }
      if (byte == 0xE0) {
        return kAfterE0;
      }
      if (byte == 0xED) {
        return kAfterED;
      }
      if (in(0xE1, 0xEF)) {
        return kTwoMore;
      }
      if (byte == 0xF0) {
        return kAfterF0;
      }
      if (in(0xF1, 0xF3)) {
        return kAfterF1ToF3;
      }
      return byte == 0xF4 ? kAfterF4 : kError;
    case kOneMore:
      return in(0x80, 0xBF) ? kAccept : kError;
    case kTwoMore:
      return in(0x80, 0xBF) ? kOneMore : kError;
    case kAfterE0:
      return in(0xA0, 0xBF) ? kOneMore : kError;
    case kAfterED:
      return in(0x80, 0x9F) ? kOneMore : kError;
    case kAfterF0:
      return in(0x90, 0xBF) ? kTwoMore : kError;
    case kAfterF1ToF3:
      return in(0x80, 0xBF) ? kTwoMore : kError;
    case kAfterF4:
      return in(0x80, 0x8F) ? kTwoMore : kError;
    default:
      return kError;
  }
}

constexpr unsigned kBitsPerState = 6;
static_assert(kStateCount * kBitsPerState <= 64);

constexpr std::array<std::uint64_t, 256> make_utf8_rows() {
  std::array<std::uint64_t, 256> rows{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    for (unsigned state = 0; state < kStateCount; ++state) {
      const std::uint64_t next = utf8_successor(state, byte) * kBitsPerState;
      rows[byte] |= next << (state * kBitsPerState);
    }
  }
  return rows;
}

constexpr std::array<std::uint64_t, 256> kUtf8Rows = make_utf8_rows();

constexpr ByteCodec kPercentEncoding{kPercentEncodedBytes};
constexpr ByteCodec kReserved{kReservedBytes};

const unsigned char* bytes_of(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

}  // namespace

std::size_t ByteCodec::encoded_size(std::string_view bytes) const noexcept {
  std::size_t size = 0;
  for (const char byte : bytes) {
    size += static_cast<unsigned char>(entries_[static_cast<unsigned char>(byte)][3]);
  }
  return size;
}

std::optional<std::size_t> ByteCodec::validated_encoded_size(
    std::string_view bytes) const noexcept {
  const unsigned char* p = bytes_of(bytes);
  std::uint64_t state = kAccept;
  std::size_t size = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    state = kUtf8Rows[p[i]] >> (state & 63);
    size += static_cast<unsigned char>(entries_[p[i]][3]);
  }
  if ((state & 63) != kAccept * kBitsPerState) {
    return std::nullopt;
  }
  return size;
}

char* ByteCodec::write(std::string_view bytes, char* out) const noexcept {
  const unsigned char* p = bytes_of(bytes);
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  // While four or more input bytes remain, at least four output bytes remain, so a
  // whole 4-byte entry can be stored: its spare bytes are overwritten by what follows.
  for (; i + 4 <= n; ++i) {
    const std::array<char, 4>& entry = entries_[p[i]];
    std::memcpy(out, entry.data(), 4);
    out += static_cast<unsigned char>(entry[3]);
  }
  for (; i < n; ++i) {
    const std::array<char, 4>& entry = entries_[p[i]];
    out[0] = entry[0];
    if (entry[3] == 3) {
      out[1] = entry[1];
      out[2] = entry[2];
    }
    out += static_cast<unsigned char>(entry[3]);
  }
  return out;
}

const ByteCodec& percent_encoding_codec() noexcept {
  return kPercentEncoding;
}

const ByteCodec& reserved_codec() noexcept {
  return kReserved;
}

namespace {

SimdKernel kernel_of(WritePath path) noexcept {
  switch (path) {
    case WritePath::kAvx512:
      return write_validated_avx512;
    case WritePath::kAvx2:
      return write_validated_avx2;
    case WritePath::kSsse3:
      return write_validated_ssse3;
    case WritePath::kScalar:
      break;
  }
  return nullptr;
}

WritePath fastest_write_path() noexcept {
  if (avx512_kernel_available()) {
    return WritePath::kAvx512;
  }
  if (avx2_kernel_available()) {
    return WritePath::kAvx2;
  }
  return ssse3_kernel_available() ? WritePath::kSsse3 : WritePath::kScalar;
}

// Asks the CPU once, during static initialisation (active_simd_kernel, constant-
// initialised to the scalar loop, is set before any dynamic initialiser runs).
[[maybe_unused]] const bool kChosen = use_write_path(fastest_write_path());

}  // namespace

constinit std::atomic<SimdKernel> active_simd_kernel{nullptr};

bool write_path_available(WritePath path) noexcept {
  switch (path) {
    case WritePath::kAvx512:
      return avx512_kernel_available();
    case WritePath::kAvx2:
      return avx2_kernel_available();
    case WritePath::kSsse3:
      return ssse3_kernel_available();
    case WritePath::kScalar:
      break;
  }
  return true;
}

WritePath write_path() noexcept {
  const SimdKernel kernel = active_simd_kernel.load(std::memory_order_relaxed);
  if (kernel == write_validated_avx512) {
    return WritePath::kAvx512;
  }
  if (kernel == write_validated_avx2) {
    return WritePath::kAvx2;
  }
  return kernel == write_validated_ssse3 ? WritePath::kSsse3 : WritePath::kScalar;
}

bool use_write_path(WritePath path) noexcept {
  if (!write_path_available(path)) {
    return false;
  }
  active_simd_kernel.store(kernel_of(path), std::memory_order_relaxed);
  return true;
}

char* ByteCodec::write_validated_scalar(std::string_view bytes, char* out) const noexcept {
  const unsigned char* p = bytes_of(bytes);
  std::uint64_t state = kAccept;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::array<char, 4>& entry = entries_[p[i]];
    state = kUtf8Rows[p[i]] >> (state & 63);
    std::memcpy(out, entry.data(), 4);
    out += static_cast<unsigned char>(entry[3]);
  }
  if ((state & 63) != kAccept * kBitsPerState) {
    return nullptr;
  }
  return out;
}

void append_encoded(std::string_view bytes, const ByteCodec& codec, std::string& out) {
  const std::size_t at = out.size();
  out.resize(at + codec.encoded_size(bytes));
  codec.write(bytes, out.data() + at);
}

}  // namespace docket::keys::detail
