// The Firestore OutboxStore: one document per message in {prefix}docket_outbox
// (firestore_outbox_document.h), staged through the unit of work's
// docket::firestore::Transaction, so that it goes in the same commit as the producer's
// writes (or a handler's, and the inbox's dedup document, when an inbox handler stages
// it), created under an exists: false precondition, applied together or not at all.
//
// Global order: Firestore has no server sequence, so the outbox keeps one in a counter
// document (firestore_sequence_counter.h), incremented on the server by a commit of its
// own (an increment transform, whose result the commit returns) when the unit of work
// commits, once for all its messages, just before the unit's commit: never handed out
// twice, never reused, a gap where that commit fails (a unit that rolls back draws
// nothing), and visible when the commit lands, so out of order only between commits in
// flight at once (a unit held open holds no number). Putting the counter's write in the
// producer's commit instead would make every two concurrent producers conflict on it.
//
//   insert     the create staged in the unit, numbered when the unit commits
//   claim      a query of status == pending ordered by sequence, page by page, until
//              `limit` documents that are due and not leased (kit/outbox_row.h); each
//              leased by a write of the whole document unchanged since the query read
//              it, all in ONE batchWrite (up to 500), each applied or refused on its own,
//              the update time of each applied lease remembered (firestore_outbox_leases.h).
//              So a round is one query page (100) and one request. A round that lost
//              messages to other relays queries again: at most 3 rounds once it leased
//              some, and while it has leased none, again as long as each round finds due
//              messages (at most 100 rounds): a claim returns nothing only when it found
//              nothing due and unleased, or lost 100 rounds in a row
//   complete, complete_all
//              ONE batchWrite marking every message whose lease this store remembers for
//              the token (status, doneAt and the lease: a masked write), each under its
//              lease's update time, so not applied where the lease was taken over; a get
//              and a commit for each other message (not leased through this store, or
//              its mark refused), which marks it only if the token still holds it
//   fail, replay, cancel, skip
//              a get, the state change of kit/outbox_row.h, and a write of the whole
//              document unchanged since the get (read again where it changed)
//   parked     a query of status == parked and sequence > after, by sequence
//   purge      a query of status == done and doneAt < cutoff, by doneAt; each deleted
//              unless changed since
//   read_feed  a query of sequence > after, by sequence
//   find       a get
// No read reads the whole collection. On the Cloud Firestore service the three queries
// on status need composite indexes (docs/firestore.md).
//
// Capabilities: joins the producer's writes (one commit: at most 500 writes and 10 MiB,
// a document at most 1 MiB), no interactive transaction, a feed of global positions,
// shared between processes.
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"

namespace docket::firestore::detail {

// Throws ConfigurationError for a URL parse_store_url refuses or a missing access
// token; sends nothing. `clock` must outlive the store.
std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_STORE_H_
