// The DynamoDB InboxStore: the transactional inbox on one table (dynamodb_inbox_table.h),
// whose units of work buffer the dedup items and the handlers' writes
// (docket::dynamodb::Transaction) and commit them as ONE TransactWriteItems
// (dynamodb_unit.h): one request per message where the dedup is checked at commit
// (DedupCheck::kAtCommit), two (a consistent GetItem, then the transaction) where it is
// checked before the handlers run. A batch (dispatch_batch) is segmented
// (spi::InboxUnit::defer_segments): one consistent BatchGetItem of its dedup items, then one
// TransactWriteItems per unit of at most 100 actions.
//
//   try_record      consistent GetItem of the dedup item; a new key stages its Put with
//                   attribute_not_exists(id)
//   record_at_commit stages that Put without reading
//   is_recorded     staged in the unit, or a consistent GetItem
//   recorded_among  staged in the unit, or a consistent BatchGetItem, 100 keys a request
//   filter_unprocessed  consistent BatchGetItem, 100 keys a request
//   purge           Query of shard_processed per shard, then a DeleteItem per item
//                   conditional on processed_at < cutoff
//   checkpoints     the DynamoDB checkpoint store on the same URL
//
// Capabilities: joins handler writes (in one TransactWriteItems), no interactive
// transaction, at most 100 writes and 4 MB per commit, no feed, shared between processes.
//
// Thread-safety: every member may be called from many threads (and processes) at once;
// a unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"

namespace docket::dynamodb::detail {

// Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
// credentials; sends nothing. `clock` stamps processed_at and must outlive the store.
std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_INBOX_STORE_H_
