#include "providers/sqlite/sqlite_options.h"

#include <string>

#include "docket/core/error.h"

namespace docket::sqlite::detail {

StoreOptions checked_options(StoreOptions options, std::string_view store) {
  if (options.path.empty()) {
    throw ConfigurationError(std::string(store) +
                             ": the database path is empty; pass a file path or \":memory:\"");
  }
  if (options.max_connections == 0) {
    throw ConfigurationError(std::string(store) + ": max_connections is 0; allow at least 1");
  }
  if (options.path == ":memory:") {
    options.max_connections = 1;
  }
  return options;
}

}  // namespace docket::sqlite::detail
