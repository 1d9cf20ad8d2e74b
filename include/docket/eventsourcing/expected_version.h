// What an append expects of the stream it writes to (optimistic concurrency).
//
// Versions: the first event of a stream has version 0, each further event the next
// integer; a stream's version is its last event's. A stream with no events does not
// exist and has version -1 (kNoStreamVersion).
//
//   ExpectedVersion::exactly(n)  the stream is at version n (n >= 0)
//   ExpectedVersion::no_stream() the stream does not exist yet
//   ExpectedVersion::any()       no check: append after whatever is there
//
// Thread-safety: immutable value type.
#ifndef DOCKET_EVENTSOURCING_EXPECTED_VERSION_H_
#define DOCKET_EVENTSOURCING_EXPECTED_VERSION_H_

#include <cstdint>
#include <string>

namespace docket {

// The version of a stream (or saga) that does not exist.
inline constexpr std::int64_t kNoStreamVersion = -1;

class ExpectedVersion {
 public:
  // The raw values of the two special expectations, as providers may store or log them.
  static constexpr std::int64_t kNoStreamValue = kNoStreamVersion;
  static constexpr std::int64_t kAnyValue = -2;

  // Throws InvalidInputError when `version` < 0 (use no_stream() for a new stream).
  static ExpectedVersion exactly(std::int64_t version);
  static constexpr ExpectedVersion no_stream() noexcept { return ExpectedVersion(kNoStreamValue); }
  static constexpr ExpectedVersion any() noexcept { return ExpectedVersion(kAnyValue); }

  // From a raw value: >= 0, kNoStreamValue or kAnyValue. Anything else throws
  // InvalidInputError naming the value.
  static ExpectedVersion from_value(std::int64_t value);

  std::int64_t value() const noexcept { return value_; }
  bool is_any() const noexcept { return value_ == kAnyValue; }
  bool is_no_stream() const noexcept { return value_ == kNoStreamValue; }

  // Whether a stream currently at `current_version` (kNoStreamVersion when absent)
  // meets this expectation.
  bool matches(std::int64_t current_version) const noexcept {
    return is_any() || value_ == current_version;
  }

  // "version 4", "no stream" or "any version".
  std::string describe() const;

  friend constexpr bool operator==(ExpectedVersion, ExpectedVersion) = default;

 private:
  constexpr explicit ExpectedVersion(std::int64_t value) noexcept : value_(value) {}
  std::int64_t value_;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_EXPECTED_VERSION_H_
