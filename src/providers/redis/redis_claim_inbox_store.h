// The Redis ClaimInboxStore: one hash per entry under the seed's Redis entry key
// (P inbox:{tenant}:{message id}:{handler type}, composed by src/keys) and three indexes
// (redis_keyspace.h).
//
//   try_claim, mark_processed, release, mark_failed, renew, try_mark_processed,
//   retry_now     one run of the entry script each (redis_claim_scripts.h): read,
//                 decide and write with nothing interleaved, on the server's clock
//   try_claim_batch, mark_processed_batch
//                 one entry script run per entry, each on its own terms, pipelined in
//                 one round trip
//   find          HGETALL
//   failed_due    the failed index up to now (ZRANGEBYSCORE), each page's entries
//                 read in one round trip, filtered by retry count
//   counts, entries  the key index in byte order (ZRANGEBYLEX), each page's entries
//                 read in one round trip and filtered (no index by tenant or status)
//   cleanup       the cleanup script: the processed index below the cutoff, at most
//                 the batch per run (for one tenant, the others' entries skipped)
//   count_cleanable  ZCOUNT of the processed index (one tenant: its pages read)
//
// Capabilities: never joins a handler's writes; no commit limit (each change is one
// script); shared between processes; leases on the store's clock (the server's TIME;
// a simulated clock's time where the store was opened with one, for tests).
//
// Thread-safety: every member may be called from many threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_INBOX_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_INBOX_STORE_H_
