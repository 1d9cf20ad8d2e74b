#include "docket/core/version_conflict.h"

#include "docket/core/error.h"

namespace docket {
namespace {

std::string describe_version(std::int64_t version) {
  return version < 0 ? std::string("none") : "version " + std::to_string(version);
}

}  // namespace

std::string VersionConflict::message() const {
  return "write to " + subject + " expected " +
         (expected_version < 0 ? std::string("that it does not exist yet")
                               : describe_version(expected_version)) +
         " but found " +
         (actual_version < 0 ? std::string("that it does not exist")
                             : describe_version(actual_version)) +
         "; another writer got there first and nothing was written. Reload, decide again "
         "on the current state and retry.";
}

void VersionConflict::raise() const {
  throw ConcurrencyConflictError(expected_version, actual_version, message());
}

}  // namespace docket
