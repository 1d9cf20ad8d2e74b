// The Cosmos DB OutboxStore: one item per message in the inbox container
// ({prefix}docket_inbox, partition key "/pk": cosmos_outbox_item.h), staged through the
// unit of work's docket::cosmos::Transaction, so that it goes in the same transactional
// batch as the producer's writes (or a handler's, and the inbox's dedup item, when an
// inbox handler stages it), in the unit's partition, applied together or not at all.
// A transactional batch holds one partition of one container, so a message staged with
// the producer's writes can live nowhere else.
//
// Global order: Cosmos DB has no sequence across partitions, so the outbox draws one from
// a counter item (cosmos_sequence_counter.h) when the unit of work commits, once for all
// its messages, just before its batch: never handed out twice, never reused, a gap where
// that batch fails, and visible when the batch lands, so out of order only between
// batches in flight at once. Per ordering key, not even then: a keyed message's batch also
// writes its key's key item (cosmos_outbox_key_item.h), so units of one key commit in
// sequence order, and the claim's first message of a key met is the key's earliest.
//
//   insert     the create staged in the unit, numbered when the unit commits, and for
//              the first message of an ordering key in the unit the key item's write
//   claim      cosmos_outbox_claim.h: a query of the pending messages' pendingSequence
//              range, in sequence order; its leases one transactional batch a
//              partition, each a replace under If-Match, their etags remembered by the
//              store object (cosmos_outbox_leases.h)
//   complete, complete_all
//              the messages whose leases the store remembers for the token: one batch a
//              partition, each a replace under its lease's etag; the rest as below
//   complete (the rest), fail, replay, skip, cancel
//              a lookup by id (one query on the indexed id, complete_all one per 100
//              ids), the state change of kit/outbox_row.h, and a replace of the whole
//              item under If-Match (a point read and again where it changed)
//   parked     a query of the parkedSequence range, by sequence
//   purge      a query of parked messages by nextAttemptAt, or of status done by doneAt;
//              each deleted under If-Match (kept when changed since)
//   read_feed  a query of sequence > after, by sequence
//   find       the lookup by id
// No read reads the whole container: each is a range or an equality on an indexed
// property (Cosmos DB indexes every property by default).
//
// Ids: Cosmos DB keeps an id unique within a partition; an id the caller gives
// (OutboxMessage::id) that another partition holds already is not refused. Fresh ids are
// UUIDv7s and never meet.
//
// Capabilities: joins the producer's writes (one batch: 100 operations and 2 MB, an item
// at most 2 MB), no interactive transaction, a feed of global positions, shared between
// processes, no wake signal (relays poll).
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"

namespace docket::cosmos::detail {

// Throws ConfigurationError for a URL parse_store_url refuses; sends nothing. `clock` must
// outlive the store.
std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_STORE_H_
