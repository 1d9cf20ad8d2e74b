// The DynamoDB outbox's reads for the key-ordered claim (dynamodb_outbox_claimable.h).
#include "providers/dynamodb/dynamodb_outbox_claimable.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_outbox_reads.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::outbox {
namespace {

// The highest sequence up to which `items`, the first `page` items of each shard, hold
// every pending message: the lowest last sequence of a shard that filled its page; none
// when no shard did (then they hold every pending message).
std::optional<std::int64_t> complete_to(const std::vector<nlohmann::json>& items, std::size_t page,
                                        std::string_view store) {
  std::map<std::int64_t, std::pair<std::size_t, std::int64_t>> shards;  // count, last
  for (const nlohmann::json& item : items) {
    const ItemReader reader(item, store);
    auto& [count, last] = shards[reader.number(kPendingShard)];
    ++count;
    last = std::max(last, reader.number(kSequence));
  }
  std::optional<std::int64_t> end;
  for (const auto& [shard, seen] : shards) {
    if (seen.first >= page) {
      end = std::min(end.value_or(seen.second), seen.second);
    }
  }
  return end;
}

// The items of `items` up to sequence `end` (all, without one), lowest sequence first.
std::vector<std::pair<std::int64_t, const nlohmann::json*>> in_order(
    const std::vector<nlohmann::json>& items, std::optional<std::int64_t> end,
    std::string_view store) {
  std::vector<std::pair<std::int64_t, const nlohmann::json*>> ordered;
  for (const nlohmann::json& item : items) {
    const std::int64_t sequence = ItemReader(item, store).number(kSequence);
    if (!end || sequence <= *end) {
      ordered.emplace_back(sequence, &item);
    }
  }
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return ordered;
}

std::string key_item_id(std::string_view tenant, std::string_view ordering_key) {
  return key_item_key(tenant, ordering_key).at(kId).at("S").get<std::string>();
}

}  // namespace

kit::ParkedKeyHeads ClaimReads::parked_key_heads() {
  kit::ParkedKeyHeads heads;
  const std::vector<nlohmann::json> items =
      query_shards(client_, table_,
                   {.index = kParkedIndex,
                    .shard_attribute = kParkedShard,
                    .order_condition = "#sequence > :after",
                    .filter = "attribute_exists(#ordering_key)",
                    .values = {{":after", number_value(0)}},
                    .per_shard = std::numeric_limits<std::size_t>::max() / 4});
  for (const nlohmann::json& item : items) {
    OutboxRecord record = record_of(item, store_);
    kit::note_parked(heads, {std::move(record.tenant), std::move(*record.ordering_key)},
                     record.sequence);
  }
  return heads;
}

kit::PendingPage ClaimReads::pending_after(std::int64_t after, std::size_t page) {
  const std::vector<nlohmann::json> items =
      query_shards(client_, table_,
                   {.index = kPendingIndex,
                    .shard_attribute = kPendingShard,
                    .order_condition = "#sequence > :after",
                    .values = {{":after", number_value(after)}},
                    .per_shard = page});
  kit::PendingPage result{.next_after = complete_to(items, page, store_)};
  for (const auto& [sequence, item] : in_order(items, result.next_after, store_)) {
    const auto lease_until = ItemReader(*item, store_).optional_number("lease_until");
    OutboxRecord record = record_of(*item, store_);
    const bool leasable =
        record.next_attempt_at <= now_ && (!lease_until || *lease_until <= kit::to_micros(now_));
    result.messages.push_back({.record = std::move(record), .leasable = leasable});
  }
  return result;
}

// Each keyed candidate whose key item (read with ConsistentRead, one BatchGetItem for all
// their keys) holds a lower sequence is held back: an earlier message of its key is
// unpublished, whether or not the indexes show it yet. A message staged before key items
// existed is held by no key item.
std::vector<bool> ClaimReads::held_back(std::span<const OutboxRecord> candidates) {
  std::vector<bool> held_back(candidates.size(), false);
  std::vector<std::string> key_ids;
  for (const OutboxRecord& record : candidates) {
    if (record.ordering_key) {
      key_ids.push_back(key_item_id(record.tenant, *record.ordering_key));
    }
  }
  if (key_ids.empty()) {
    return held_back;
  }
  const std::map<std::string, nlohmann::json> key_items =
      consistent_batch_get(client_, table_, store_, key_ids,
                           {.key_attribute = kId, .projection = "#id, #" + std::string(kHeld)});
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const OutboxRecord& record = candidates[i];
    if (!record.ordering_key) {
      continue;
    }
    const auto key_item = key_items.find(key_item_id(record.tenant, *record.ordering_key));
    if (key_item == key_items.end()) {
      continue;
    }
    const std::vector<std::int64_t> held = held_of(key_item->second, store_);
    held_back[i] = std::any_of(held.begin(), held.end(),
                               [&](std::int64_t sequence) { return sequence < record.sequence; });
  }
  return held_back;
}

}  // namespace docket::dynamodb::detail::outbox
