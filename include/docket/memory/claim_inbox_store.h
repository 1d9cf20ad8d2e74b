// The memory claim inbox (docket/inbox/claim_inbox_store.h): process-local entries on a
// docket::memory::Database; every operation is atomic under the database's lock.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_CLAIM_INBOX_STORE_H_
#define DOCKET_MEMORY_CLAIM_INBOX_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/memory/database.h"

namespace docket::memory {

// A claim inbox on `database`.
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(const Database& database);
// The same on a database of its own.
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(
    const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_CLAIM_INBOX_STORE_H_
