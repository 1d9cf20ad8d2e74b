#include "docket/outbox/outbox_store.h"

namespace docket {

std::size_t OutboxStore::complete_all(std::span<const std::string> ids, std::string_view token,
                                      Timestamp now) {
  std::size_t marked = 0;
  for (const std::string& id : ids) {
    marked += complete(id, token, now) ? 1 : 0;
  }
  return marked;
}

}  // namespace docket
