// The result value of a write that lost an optimistic-concurrency race: the record
// (event stream or saga) was not at the version the writer expected. Nothing of the
// write was stored. The writer reloads, decides again and retries, or gives up.
//
// Versions follow docket/eventsourcing/expected_version.h: -1 (kNoStreamVersion) means "no record",
// as expected ("create it") or as found ("there is none").
//
// WriteResult<Success> is the result of such a write: the provider's success value, or
// the conflict. AppendResult and SagaSaveResult are its two uses.
//
// Thread-safety: plain value types.
#ifndef DOCKET_CORE_VERSION_CONFLICT_H_
#define DOCKET_CORE_VERSION_CONFLICT_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "docket/core/error.h"

namespace docket {

struct VersionConflict {
  std::string subject;            // what was written, e.g. StreamId::describe()
  std::int64_t expected_version;  // what the writer expected; -1: no record
  std::int64_t actual_version;    // what the store holds; -1: no record

  // "append to stream (...) expected version 3 but it is at version 5; nothing was
  // written. Reload, decide again and retry." (wording per subject and versions)
  std::string message() const;

  // Throws ConcurrencyConflictError with message() and both versions.
  [[noreturn]] void raise() const;

  friend bool operator==(const VersionConflict&, const VersionConflict&) = default;
};

template <typename Success>
class WriteResult {
 public:
  WriteResult(Success success) : outcome_(std::move(success)) {}            // NOLINT
  WriteResult(VersionConflict conflict) : outcome_(std::move(conflict)) {}  // NOLINT

  bool succeeded() const noexcept { return outcome_.index() == 0; }
  bool is_conflict() const noexcept { return outcome_.index() == 1; }

  // success() on a conflict throws its ConcurrencyConflictError (as value_or_throw());
  // conflict() on a success throws docket::Error: check is_conflict() first.
  const Success& success() const { return value_or_throw(); }
  const VersionConflict& conflict() const {
    if (!is_conflict()) {
      throw Error("conflict() called on a successful write; check is_conflict() first");
    }
    return std::get<1>(outcome_);
  }

  // The success, or throws ConcurrencyConflictError: for callers that treat losing the
  // race as exceptional.
  const Success& value_or_throw() const {
    if (is_conflict()) {
      std::get<1>(outcome_).raise();
    }
    return std::get<0>(outcome_);
  }

 private:
  std::variant<Success, VersionConflict> outcome_;
};

}  // namespace docket

#endif  // DOCKET_CORE_VERSION_CONFLICT_H_
