#include "docket/open_inbox_store.h"

#include "providers/open_by_url.h"

namespace docket {

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  return providers::open_by_url(url, "inbox store", clock,
                                [](const auto&... db) { return open_store(db...); });
}

}  // namespace docket
