#include "docket/eventsourcing/expected_version.h"

#include "docket/core/error.h"

namespace docket {

ExpectedVersion ExpectedVersion::exactly(std::int64_t version) {
  if (version < 0) {
    throw InvalidInputError("expected version " + std::to_string(version) +
                            " is negative; stream versions start at 0. Use "
                            "ExpectedVersion::no_stream() for a stream that does not exist "
                            "yet, or ExpectedVersion::any() to skip the check.");
  }
  return ExpectedVersion(version);
}

ExpectedVersion ExpectedVersion::from_value(std::int64_t value) {
  if (value == kNoStreamValue || value == kAnyValue) {
    return ExpectedVersion(value);
  }
  if (value < 0) {
    throw InvalidInputError("expected version " + std::to_string(value) +
                            " is not a version (>= 0), -1 (no stream) or -2 (any version).");
  }
  return ExpectedVersion(value);
}

std::string ExpectedVersion::describe() const {
  if (is_any()) {
    return "any version";
  }
  if (is_no_stream()) {
    return "no stream";
  }
  return "version " + std::to_string(value_);
}

}  // namespace docket
