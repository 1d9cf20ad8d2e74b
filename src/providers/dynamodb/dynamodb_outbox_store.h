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
//              by a resend; a unit that rolls back draws nothing)
//   claim      a Query of the pending index per shard (due and not leased, by filter),
//              merged by sequence; the lowest leased in one TransactWriteItems whose
//              conditions re-check each item (dynamodb_outbox_requests.h)
//   complete, complete_all, fail, replay, purge_done_batch
//              TransactWriteItems of at most 100 conditional actions, with a
//              ClientRequestToken (dynamodb_conditional_writes.h); purge's candidates from a
//              Query of the done index per shard
//   parked, read_feed  a Query of the parked or feed index per shard, merged
//   find       a consistent GetItem
// No read scans the table.
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
