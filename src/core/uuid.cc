#include "docket/core/uuid.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <span>

#include "core/hex.h"
#include "core/os_random.h"
#include "docket/core/error.h"

namespace docket {
namespace {

constexpr std::uint64_t kMaxUnixMillis = (std::uint64_t{1} << 48) - 1;
constexpr int kCounterBits = 12;
constexpr std::uint64_t kCounterMask = (std::uint64_t{1} << kCounterBits) - 1;

// The last v7 (timestamp, counter) pair handed out in this process, packed as
// (unix_millis << 12) | counter. Every successful update writes a strictly greater
// value, so the ids are strictly increasing in the atomic's modification order, which
// every thread observes consistently (relaxed ordering suffices: only this one
// variable is involved). Incrementing the packed value carries a counter overflow
// into the timestamp field, as RFC 9562 section 6.2 allows.
std::atomic<std::uint64_t> last_v7_state{0};

void set_version_and_variant(Uuid::Bytes& bytes, std::uint8_t version) {
  bytes[6] = static_cast<std::uint8_t>((bytes[6] & 0x0F) | (version << 4));
  bytes[8] = static_cast<std::uint8_t>((bytes[8] & 0x3F) | 0x80);
}

}  // namespace

Uuid Uuid::v4() {
  Bytes bytes;
  core::fill_os_random(bytes);
  set_version_and_variant(bytes, 4);
  return Uuid(bytes);
}

Uuid Uuid::v7() {
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  const auto millis = std::chrono::floor<std::chrono::milliseconds>(since_epoch).count();
  // A clock before 1970 is a misconfigured host; the id still orders after every
  // earlier one because the state only moves forward.
  return v7_at(millis < 0 ? 0 : static_cast<std::uint64_t>(millis));
}

Uuid Uuid::v7_at(std::uint64_t unix_millis) {
  if (unix_millis > kMaxUnixMillis) {
    throw InvalidInputError("UUID v7 timestamp " + std::to_string(unix_millis) +
                            " ms does not fit the 48-bit field (maximum " +
                            std::to_string(kMaxUnixMillis) +
                            "); pass Unix milliseconds, not microseconds or nanoseconds.");
  }
  // random[0..1]: the counter seed for a new millisecond; random[2..9]: rand_b.
  std::array<std::uint8_t, 10> random;
  core::fill_os_random(random);
  // The seed's top bit is clear so that at least 2048 ids fit in each millisecond
  // before the counter overflows into the timestamp.
  const std::uint64_t seed = ((std::uint64_t{random[0]} << 8) | random[1]) & (kCounterMask >> 1);

  std::uint64_t previous = last_v7_state.load(std::memory_order_relaxed);
  std::uint64_t next = 0;
  do {
    next = (unix_millis > (previous >> kCounterBits)) ? (unix_millis << kCounterBits) | seed
                                                      : previous + 1;
  } while (!last_v7_state.compare_exchange_weak(previous, next, std::memory_order_relaxed));

  // The timestamp field can exceed 48 bits only after 4096 ids per millisecond at the
  // very last representable millisecond (year 10889); it then wraps.
  const std::uint64_t millis = (next >> kCounterBits) & kMaxUnixMillis;
  const std::uint64_t counter = next & kCounterMask;
  Bytes bytes;
  for (int i = 0; i < 6; ++i) {
    bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(millis >> (40 - 8 * i));
  }
  bytes[6] = static_cast<std::uint8_t>(counter >> 8);
  bytes[7] = static_cast<std::uint8_t>(counter);
  for (std::size_t i = 8; i < 16; ++i) {
    bytes[i] = random[i - 6];
  }
  set_version_and_variant(bytes, 7);
  return Uuid(bytes);
}

std::optional<Uuid> Uuid::parse(std::string_view text) noexcept {
  if (text.size() != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' ||
      text[23] != '-') {
    return std::nullopt;
  }
  // "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx": the 32 digits closed up, then decoded eight
  // at a time (event stores parse an id for every event they load).
  std::array<char, 32> digits;
  std::memcpy(&digits[0], &text[0], 8);
  std::memcpy(&digits[8], &text[9], 4);
  std::memcpy(&digits[12], &text[14], 4);
  std::memcpy(&digits[16], &text[19], 4);
  std::memcpy(&digits[20], &text[24], 12);
  Bytes bytes{};
  if (!core::decode_hex(std::string_view(digits.data(), digits.size()),
                        std::as_writable_bytes(std::span(bytes)))) {
    return std::nullopt;
  }
  return Uuid(bytes);
}

std::string Uuid::to_string() const {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text(36, '-');
  std::size_t out = 0;
  for (std::size_t i = 0; i < bytes_.size(); ++i) {
    out += (i == 4 || i == 6 || i == 8 || i == 10) ? 1 : 0;  // past a hyphen
    text[out++] = kHex[bytes_[i] >> 4];
    text[out++] = kHex[bytes_[i] & 0x0F];
  }
  return text;
}

std::uint64_t Uuid::unix_millis() const noexcept {
  std::uint64_t millis = 0;
  for (std::size_t i = 0; i < 6; ++i) {
    millis = (millis << 8) | bytes_[i];
  }
  return millis;
}

}  // namespace docket
