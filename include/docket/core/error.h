// Errors docket reports by exception: conditions the caller cannot go on from.
//
// Expected outcomes (a duplicate delivery, an append that lost a race) are result
// values, not exceptions. Every exception here carries a message that says what was
// wrong, the values involved, and what to do about it; the structured fields repeat
// those values for callers that branch on them.
//
// Thread-safety: exception objects are immutable after construction.
#ifndef DOCKET_CORE_ERROR_H_
#define DOCKET_CORE_ERROR_H_

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace docket {

// Root of every exception docket throws.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A setting is missing, malformed or contradictory. Raised at construction or
// start-up, never on the first message.
class ConfigurationError : public Error {
 public:
  using Error::Error;
};

// A value passed in by the caller is not acceptable (blank, malformed, reserved).
// Nothing has been written.
class InvalidInputError : public Error {
 public:
  using Error::Error;
};

// A term of a stored key is not acceptable: not valid UTF-8, empty, or otherwise
// unusable. `term()` names the term ("tenant", "message id", ...).
class InvalidKeyTermError : public InvalidInputError {
 public:
  InvalidKeyTermError(std::string term, const std::string& message)
      : InvalidInputError(message), term_(std::move(term)) {}
  const std::string& term() const noexcept { return term_; }

 private:
  std::string term_;
};

// A composed key exceeds what the provider stores. The key is never truncated:
// two different messages could then share one key.
class KeyTooLongError : public InvalidInputError {
 public:
  KeyTooLongError(std::string provider, std::size_t limit_bytes, std::size_t actual_bytes,
                  const std::string& message)
      : InvalidInputError(message),
        provider_(std::move(provider)),
        limit_bytes_(limit_bytes),
        actual_bytes_(actual_bytes) {}
  const std::string& provider() const noexcept { return provider_; }
  std::size_t limit_bytes() const noexcept { return limit_bytes_; }
  std::size_t actual_bytes() const noexcept { return actual_bytes_; }

 private:
  std::string provider_;
  std::size_t limit_bytes_;
  std::size_t actual_bytes_;
};

// An optimistic-concurrency expectation did not hold where the API cannot return it
// as a value. Carries the expected and actual versions (-1 means "no record").
class ConcurrencyConflictError : public Error {
 public:
  ConcurrencyConflictError(std::int64_t expected_version, std::int64_t actual_version,
                           const std::string& message)
      : Error(message), expected_version_(expected_version), actual_version_(actual_version) {}
  std::int64_t expected_version() const noexcept { return expected_version_; }
  std::int64_t actual_version() const noexcept { return actual_version_; }

 private:
  std::int64_t expected_version_;
  std::int64_t actual_version_;
};

// A store found data on a shape this release no longer addresses (for example an
// untenanted stream key) and refused to act on an absence it cannot vouch for.
// Nothing has been modified.
class LegacyDataError : public Error {
 public:
  LegacyDataError(std::string collection, std::string key, const std::string& message)
      : Error(message), collection_(std::move(collection)), key_(std::move(key)) {}
  const std::string& collection() const noexcept { return collection_; }
  const std::string& key() const noexcept { return key_; }

 private:
  std::string collection_;
  std::string key_;
};

// The database, server or operating system failed (connection lost, disk full,
// unexpected server error). The operation may be retried.
class InfrastructureError : public Error {
 public:
  using Error::Error;
};

}  // namespace docket

#endif  // DOCKET_CORE_ERROR_H_
