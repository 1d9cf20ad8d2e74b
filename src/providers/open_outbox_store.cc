#include "docket/open_outbox_store.h"

#include "providers/open_by_url.h"

namespace docket {

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock) {
  return providers::open_by_url(url, "outbox store", clock,
                                [](const auto&... db) { return open_outbox_store(db...); });
}

}  // namespace docket
