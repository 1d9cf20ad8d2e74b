// The Firestore InboxStore: the transactional inbox on one collection
// (firestore_inbox_document.h), whose units of work buffer the dedup documents and the
// handlers' writes (docket::firestore::Transaction) and send them as ONE commit
// (firestore_unit.h), the dedup document created under an exists: false precondition:
// one request per message where the dedup is checked at commit (DedupCheck::kAtCommit),
// two (a strongly consistent get, then the commit) where it is checked before the
// handlers run. A batch (dispatch_batch) is segmented (spi::InboxUnit::defer_segments): one
// batchGet of its dedup documents, then one commit per unit of at most 500 writes.
//
//   try_record       get of the dedup document; a new id stages its create
//   record_at_commit stages the create without reading
//   is_recorded      staged in the unit, or a get
//   recorded_among   staged in the unit, or batch gets, 100 ids a request
//   filter_unprocessed  batch gets, 100 ids a request
//   purge            a query of processedAt < cutoff ordered by processedAt, at most
//                    `limit` documents, each deleted unless changed since the query
//   checkpoints      the Firestore checkpoint store on the same URL
//
// Capabilities: joins handler writes (in one commit), no interactive transaction, at
// most 500 writes and 10 MiB per commit, no feed, shared between processes.
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"

namespace docket::firestore::detail {

// Throws ConfigurationError for a URL parse_store_url refuses or a missing access
// token; sends nothing. `clock` stamps processedAt and must outlive the store.
std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_STORE_H_
