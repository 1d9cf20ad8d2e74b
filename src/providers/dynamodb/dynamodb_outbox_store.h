// The DynamoDB OutboxStore: one item per message in <table_prefix>docket_outbox
// (dynamodb_outbox_table.h), staged through the unit of work's
// docket::dynamodb::Transaction, so that it goes in the same TransactWriteItems as the
// producer's writes (or a handler's, and the inbox's dedup item, when an inbox handler
// stages it), applied together or not at all.
//
//   insert     a Put with attribute_not_exists(id) staged in the unit, numbered when the
//              unit commits: one UpdateItem ADD of the counter item for all of the unit's
//              messages, just before its TransactWriteItems (dynamodb_sequence_counter.h:
//              never reused; a gap when that commit fails, or the draw was applied twice
//              by a resend; a unit that rolls back draws nothing); a keyed message's
//              sequence added to its key item in that same TransactWriteItems (one hold
//              action per key, dynamodb_outbox_table.h)
//   claim      a Query of the pending index per shard from the lowest sequence on,
//              merged by sequence, and a consistent BatchGetItem of the keyed
//              candidates' key items (dynamodb_outbox_claimable.h); the lowest leased in
//              one TransactWriteItems whose conditions re-check each item
//              (dynamodb_outbox_claim.h, dynamodb_outbox_requests.h)
//   fail, replay
//              TransactWriteItems of at most 100 conditional actions, with a
//              ClientRequestToken (dynamodb_conditional_writes.h)
//   complete, complete_all, skip, cancel, purge_parked_batch
//              the same, each keyed message's change with the release of its sequence
//              from its key item (apply_releasing); the messages' keys and sequences
//              as this store's claim leased them (kept until changed, bounded), else
//              from a consistent BatchGetItem (dynamodb_outbox_releases.h), or the
//              parked index's items
//   purge_done_batch  a Query of the done index per shard, conditional Deletes, then the
//              purged messages' emptied key items deleted
//   parked, read_feed  a Query of the parked or feed index per shard, merged
//   find       a consistent GetItem
// No read scans the table. Order per key is strict: the indexes are eventually
// consistent, but a message is leased only when its key item, read consistently, holds
// no lower sequence (docs/outbox.md, "Order per key").
//
// Capabilities: joins the producer's writes (one TransactWriteItems: at most 100 writes
// and 4 MB, an item at most 400 KB), no interactive transaction, a feed of global
// positions (the counter's sequences, drawn at commit and visible when the commit
// lands, so out of order only between commits in flight at once: a unit held open
// holds no number), shared between processes.
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"

namespace docket::dynamodb::detail {

// Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
// credentials; sends nothing. `clock` must outlive the store.
std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_STORE_H_
