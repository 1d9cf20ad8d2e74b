// RFC 9562 UUIDs: version 4 (random) and version 7 (Unix-time ordered).
//
// docket's outbox ids are version 7: they sort by creation time, which keeps B-tree
// inserts at the right edge of the index. Within one process, successive v7 ids are
// strictly increasing even when the clock stands still or steps back (a 12-bit
// counter in rand_a, re-seeded each millisecond; on overflow the timestamp field is
// advanced).
//
// Thread-safety: Uuid is an immutable value type. Uuid::v4() and Uuid::v7() may be
// called from any number of threads; v7 ids are monotonic across all of them.
#ifndef DOCKET_CORE_UUID_H_
#define DOCKET_CORE_UUID_H_

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docket {

class Uuid {
 public:
  using Bytes = std::array<std::uint8_t, 16>;

  // The nil UUID, 00000000-0000-0000-0000-000000000000.
  constexpr Uuid() noexcept : bytes_{} {}
  constexpr explicit Uuid(const Bytes& bytes) noexcept : bytes_(bytes) {}

  // A random (version 4, variant 10) UUID from the operating system's CSPRNG.
  // v4(), v7() and v7_at() throw InfrastructureError if the CSPRNG is unavailable.
  static Uuid v4();

  // A time-ordered (version 7, variant 10) UUID: 48-bit Unix milliseconds, then a
  // counter and random bits. Strictly greater than every v7 id made before it in
  // this process.
  static Uuid v7();

  // Same as v7() with the millisecond timestamp supplied (for tests and replays);
  // the process-wide monotonicity still holds, so a timestamp at or behind the last
  // id's yields that id's timestamp with the counter advanced. Throws
  // InvalidInputError when `unix_millis` does not fit 48 bits.
  static Uuid v7_at(std::uint64_t unix_millis);

  // Parses the canonical 8-4-4-4-12 hex form, lower- or upper-case (mixed case is
  // accepted). Anything else (braces, missing hyphens, wrong length, non-hex) is
  // nullopt. Does not check the version or variant.
  static std::optional<Uuid> parse(std::string_view text) noexcept;

  // Canonical lower-case 8-4-4-4-12 form, 36 characters.
  std::string to_string() const;

  // The version nibble (4 or 7 for ids docket makes); 0 for the nil UUID.
  int version() const noexcept { return bytes_[6] >> 4; }

  // For version 7 ids: the Unix milliseconds in the first 48 bits.
  std::uint64_t unix_millis() const noexcept;

  bool is_nil() const noexcept { return *this == Uuid(); }
  const Bytes& bytes() const noexcept { return bytes_; }

  friend constexpr bool operator==(const Uuid&, const Uuid&) = default;
  friend constexpr auto operator<=>(const Uuid&, const Uuid&) = default;

 private:
  Bytes bytes_;
};

}  // namespace docket

#endif  // DOCKET_CORE_UUID_H_
