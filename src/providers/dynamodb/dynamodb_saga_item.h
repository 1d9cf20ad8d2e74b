// The saga store's table and its items.
//
//   table  <table_prefix>docket_sagas, partition key pk (S) = kit::saga_key
//          (SAGA#t:{tenant}:{sagaId}: the tenant is part of it), sort key saga_type (S)
//          = kit::saga_type_key
//   every item  tenant (S); version (N); state (B, byte for byte); status (S, "active"
//          or "completed"); started_at, updated_at (N, Unix microseconds)
//   once completed  completed_at (N) and shard (N, 0..claim::kShards-1, from the
//          partition key, as the claim inbox shards)
//
// Global secondary indexes, each sparse (only completed sagas carry completed_at and
// shard), each projecting the item: the purge's reads of completed sagas by age, so
// that no read scans the table.
//   shard_completed   shard / completed_at    every tenant's, one Query per shard
//   tenant_completed  tenant / completed_at   one tenant's
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_ITEM_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_ITEM_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"
#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail::saga {

inline constexpr std::string_view kTableBase = "docket_sagas";

inline constexpr std::string_view kKey = "pk";
inline constexpr std::string_view kSagaType = "saga_type";
inline constexpr std::string_view kTenant = "tenant";
inline constexpr std::string_view kVersion = "version";
inline constexpr std::string_view kState = "state";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kStartedAt = "started_at";
inline constexpr std::string_view kUpdatedAt = "updated_at";
inline constexpr std::string_view kCompletedAt = "completed_at";
inline constexpr std::string_view kShard = "shard";

inline constexpr std::string_view kShardCompletedIndex = "shard_completed";
inline constexpr std::string_view kTenantCompletedIndex = "tenant_completed";

inline constexpr std::string_view kActive = "active";
inline constexpr std::string_view kCompleted = "completed";

// The table of the store URL `url`.
TableSchema saga_table_schema(const StoreUrl& url);

// The item's primary key, checked against DynamoDB's key limits.
nlohmann::json saga_item_key(const TableSchema& schema, const SagaId& saga);

// The whole item of `record` for `saga`, checked against the limits.
nlohmann::json saga_item(const TableSchema& schema, const SagaId& saga, const SagaRecord& record);

// The record an item holds. Throws InfrastructureError (naming `store`) for an item
// docket did not write.
SagaRecord read_saga_item(const nlohmann::json& item, std::string_view store);

// What the listing shows of an item (every attribute but the state): its identity
// recovered from its keys through src/keys (the partition key's tenant and saga id,
// the sort key's saga type), version, status and times. Throws InfrastructureError
// (naming `store` and the key) for an item docket did not write, or one of the
// untenanted legacy shape.
SagaSummary read_saga_summary(const nlohmann::json& item, std::string_view store);

// The attributes read_saga_summary reads, as a ProjectionExpression of #name
// placeholders (dynamodb_expression.h).
inline constexpr std::string_view kSummaryProjection =
    "#pk, #saga_type, #version, #status, #started_at, #updated_at, #completed_at";

}  // namespace docket::dynamodb::detail::saga

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_ITEM_H_
