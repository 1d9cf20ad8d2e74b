// The outbox's reads of its indexes (dynamodb_outbox_table.h): each index is split into
// kShards partitions, so one read is a Query per shard, each in the index's order (by
// sequence, or done_at for the done index), merged. Nothing reads the table by Scan.
//
// An index is eventually consistent: an item may show there a moment after its write,
// and keep its old place for a moment after a change. Every write the store bases on an
// index read therefore carries its own condition on the item itself, and order per key
// rests on the key items (dynamodb_outbox_table.h), read consistently
// (dynamodb_consistent_reads.h).
//
// Thread-safety: pure functions over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_READS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_READS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail::outbox {

struct ShardQuery {
  std::string_view index;            // kPendingIndex, ...
  std::string_view shard_attribute;  // kPendingShard, ...: its key condition is #it = :shard
  std::string order_condition;       // ANDed to it on the sort key: "#sequence > :after"
  std::string filter{};              // a FilterExpression, or empty
  nlohmann::json values = nlohmann::json::object();  // the :values of the three, not :shard
  std::size_t per_shard = 0;  // the most items wanted from each shard (after the filter)
};

// Each shard's first `per_shard` items in index order, shard after shard.
std::vector<nlohmann::json> query_shards(const Client& client, const std::string& table,
                                         const ShardQuery& query);

// The records of `items`, lowest sequence first, at most `limit`.
std::vector<OutboxRecord> lowest_sequences(const std::vector<nlohmann::json>& items,
                                           std::size_t limit, std::string_view store);

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_READS_H_
