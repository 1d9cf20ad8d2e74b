#include "providers/dynamodb/dynamodb_claim_table.h"

#include <string>

namespace docket::dynamodb::detail::claim {

TableSchema claim_table_schema(const StoreUrl& url) {
  const KeyAttribute tenant{std::string(kTenant), KeyType::kString};
  const KeyAttribute shard{std::string(kShard), KeyType::kNumber};
  const KeyAttribute processed_at{std::string(kProcessedAt), KeyType::kNumber};
  return TableSchema{.name = url.table_name(kTableBase),
                     .partition_key = {std::string(kId), KeyType::kString},
                     .sort_key = std::nullopt,
                     .global_indexes = {
                         {std::string(kTenantProcessedIndex), tenant, processed_at},
                         {std::string(kShardProcessedIndex), shard, processed_at},
                         {std::string(kShardFailedIndex), shard,
                          KeyAttribute{std::string(kFailedDueAt), KeyType::kNumber}},
                     }};
}

std::int64_t shard_of(std::string_view entry_id) noexcept {
  std::uint32_t hash = 2166136261u;
  for (const char c : entry_id) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return static_cast<std::int64_t>(hash % static_cast<std::uint32_t>(kShards));
}

}  // namespace docket::dynamodb::detail::claim
