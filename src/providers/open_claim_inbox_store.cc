#include "docket/open_claim_inbox_store.h"

#include "docket/memory/claim_inbox_store.h"
#include "providers/open_by_url.h"
#if DOCKET_HAVE_SQLITE
#include "docket/sqlite/claim_inbox_store.h"
#endif
#if DOCKET_HAVE_POSTGRES
#include "docket/postgres/claim_inbox_store.h"
#endif

namespace docket {

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(std::string_view url, const Clock& clock) {
  return providers::open_by_url(url, "claim inbox store", clock,
                                [](const auto&... db) { return open_claim_inbox_store(db...); });
}

}  // namespace docket
