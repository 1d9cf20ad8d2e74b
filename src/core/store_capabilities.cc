#include "docket/core/store_capabilities.h"

#include <string>

#include "docket/core/error.h"

namespace docket {

std::string_view describe(FeedKind kind) noexcept {
  switch (kind) {
    case FeedKind::kGlobalPositions:
      return "global positions";
    case FeedKind::kOpaqueCursors:
      return "opaque cursors";
    case FeedKind::kNone:
      break;
  }
  return "no feed";
}

std::string_view describe(LeaseClock clock) noexcept {
  return clock == LeaseClock::kStore ? "store" : "claimer";
}

void refuse_capability(std::string_view store, std::string_view capability,
                       std::string_view alternative) {
  throw ConfigurationError(std::string(store) + " cannot " + std::string(capability) + ": " +
                           std::string(alternative));
}

}  // namespace docket
