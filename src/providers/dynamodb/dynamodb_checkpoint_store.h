// The DynamoDB CheckpointStore: one item per (tenant, consumer) in the table
// <table_prefix>docket_consumer_checkpoints, partition key tenant (S), sort key
// consumer_id (S), each the term itself (a key of two attributes needs no composed
// id); position (S) and updated_at (N, Unix microseconds) beside them.
//
// get is a strongly consistent GetItem; set a PutItem of the whole item, an upsert in
// one request of its own, durable when it returns and never part of a caller's unit of
// work. Both are safe to send twice (Replay::kSafe): the same item put twice is put
// once. The table is made sure of on first use.
//
// Thread-safety: get and set may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CHECKPOINT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"

namespace docket::dynamodb::detail {

inline constexpr std::string_view kCheckpointTableBase = "docket_consumer_checkpoints";

// Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
// credentials; sends nothing. `clock` stamps updated_at and must outlive the store.
std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CHECKPOINT_STORE_H_
