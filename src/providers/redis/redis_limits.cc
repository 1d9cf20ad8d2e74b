// Redis's limits (redis_limits.h).
#include "providers/redis/redis_limits.h"

#include <string>

#include "docket/core/error.h"

namespace docket::redis::detail {

void check_size(std::string_view what, std::string_view bytes) {
  if (bytes.size() > kMaxBulkBytes) {
    throw InvalidInputError("a Redis " + std::string(what) + " of " + std::to_string(bytes.size()) +
                            " bytes is over Redis's limit of " + std::to_string(kMaxBulkBytes) +
                            " bytes (512 MB); nothing was written: store it in smaller parts");
  }
}

}  // namespace docket::redis::detail
