#include "docket/store_capabilities.h"

#include <string>

#include "docket/error.h"

namespace docket {

void refuse_capability(std::string_view store, std::string_view capability,
                       std::string_view alternative) {
  throw ConfigurationError(std::string(store) + " cannot " + std::string(capability) + ": " +
                           std::string(alternative));
}

}  // namespace docket
