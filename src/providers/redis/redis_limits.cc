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

void check_record(std::string_view store, std::string_view what,
                  std::span<const std::string> fields, std::string_view advice) {
  std::size_t bytes = 0;
  for (const std::string& field : fields) {
    bytes += field.size();
  }
  if (bytes > kMaxBulkBytes) {
    throw InvalidInputError(std::string(store) + ": " + std::string(what) +
                            " would be a record of " + std::to_string(bytes) + " bytes, over the " +
                            std::to_string(kMaxBulkBytes) +
                            " bytes docket's Redis stores keep per record (Redis's 512 MB per "
                            "value). Nothing was written. " +
                            std::string(advice));
  }
}

}  // namespace docket::redis::detail
