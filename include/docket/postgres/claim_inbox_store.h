// The PostgreSQL claim inbox (docket/inbox/claim_inbox_store.h): table docket_claim_inbox in the
// same database as the provider's other stores, its own schema component.
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_POSTGRES_CLAIM_INBOX_STORE_H_
#define DOCKET_POSTGRES_CLAIM_INBOX_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/postgres/store.h"

namespace docket::postgres {

// Same refusals as open_store (docket/postgres/store.h). The schema is migrated on first
// use (or by migrate()).
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(
    StoreOptions options, const Clock& clock = SystemClock::instance());

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_CLAIM_INBOX_STORE_H_
