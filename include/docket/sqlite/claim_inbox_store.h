// The SQLite claim inbox (docket/inbox/claim_inbox_store.h): table docket_claim_inbox in the
// same database as the provider's other stores, its own schema component.
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_SQLITE_CLAIM_INBOX_STORE_H_
#define DOCKET_SQLITE_CLAIM_INBOX_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/sqlite/store.h"

namespace docket::sqlite {

// Same refusals as open_store (docket/sqlite/store.h). The schema is migrated on first
// use (or by migrate()).
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(
    StoreOptions options, const Clock& clock = SystemClock::instance());

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_CLAIM_INBOX_STORE_H_
