#include "message_ids.h"

#include "docket/core/uuid.h"

namespace docket::bench {

std::string_view to_string(IdOrder order) noexcept {
  return order == IdOrder::kTimeOrdered ? "uuidv7" : "uuidv4";
}

MessageIds::MessageIds(std::size_t count, IdOrder order) {
  text_.reserve(count * kIdBytes);
  for (std::size_t i = 0; i < count; ++i) {
    text_ += (order == IdOrder::kTimeOrdered ? Uuid::v7() : Uuid::v4()).to_string();
  }
}

}  // namespace docket::bench
