// The Redis InboxStore: the transactional inbox on one Redis database, whose units of
// work (redis_unit.h) hold the dedup records and the handlers' writes
// (docket::redis::Transaction) and commit them in ONE run of the commit script.
//
//   try_record        TYPE of the record's key (or staged in the unit); a new key is
//                     staged, and checked again, atomically, by the commit script
//   record_at_commit  stages the record unread: the script refuses a duplicate
//   is_recorded       staged in the unit, or TYPE
//   recorded_among / filter_unprocessed  one pipelined TYPE per id: one round trip
//   purge             the purge script: ZRANGEBYSCORE of the processed index below the
//                     cutoff (at most the batch), each record deleted with its index
//                     entry, in one script run (explicit retention: the caller's cutoff,
//                     no TTL, so a record lives exactly as long as the caller keeps it)
//   purge_consumer    ZSCAN of the processed index, the records' tenant and consumer
//                     read in one round trip per page, the matches deleted (no index by
//                     consumer: a rebuild tool's scan, not a hot path)
//   checkpoints       the Redis checkpoint store on the same URL
//
// Capabilities: joins handler writes (in one script run), no interactive transaction,
// no limit on writes per commit, 1 GB per commit (the server's query buffer) and 512 MB
// per value, no feed, no server-side expiry, shared between processes, one writer at a
// time (Redis runs one command or script at a time).
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_INBOX_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
// `clock` stamps processed_at and must outlive the store.
std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_INBOX_STORE_H_
