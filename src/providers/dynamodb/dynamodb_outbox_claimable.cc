#include "providers/dynamodb/dynamodb_outbox_claimable.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_outbox_reads.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::outbox {
namespace {

// How many pages of the pending index one call reads past messages it may not lease
// (in backoff, leased, or held by their key) before it settles for fewer.
constexpr int kClaimPages = 8;

using TenantKey = std::pair<std::string, std::string>;  // tenant, ordering key

// The lowest parked sequence of each (tenant, ordering key) that has a parked message.
std::map<TenantKey, std::int64_t> parked_keys(const Client& client, const std::string& table,
                                              std::string_view store) {
  std::map<TenantKey, std::int64_t> heads;
  const std::vector<nlohmann::json> items =
      query_shards(client, table,
                   {.index = kParkedIndex,
                    .shard_attribute = kParkedShard,
                    .order_condition = "#sequence > :after",
                    .filter = "attribute_exists(#ordering_key)",
                    .values = {{":after", number_value(0)}},
                    .per_shard = std::numeric_limits<std::size_t>::max() / 4});
  for (const nlohmann::json& item : items) {
    const OutboxRecord record = record_of(item, store);
    const auto [it, inserted] =
        heads.emplace(TenantKey{record.tenant, *record.ordering_key}, record.sequence);
    if (!inserted) {
      it->second = std::min(it->second, record.sequence);
    }
  }
  return heads;
}

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

// Drops from result[first..] each keyed message whose key item (read with
// ConsistentRead, one BatchGetItem for all their keys) holds a lower sequence: an
// earlier message of its key that is unpublished, whether or not the indexes show it
// yet. A message staged before key items existed is held by no key item.
void drop_held_back(const Client& client, const std::string& table, std::string_view store,
                    std::vector<OutboxRecord>& result, std::size_t first) {
  std::vector<std::string> key_ids;
  for (std::size_t i = first; i < result.size(); ++i) {
    if (result[i].ordering_key) {
      key_ids.push_back(key_item_id(result[i].tenant, *result[i].ordering_key));
    }
  }
  if (key_ids.empty()) {
    return;
  }
  const std::map<std::string, nlohmann::json> key_items =
      consistent_batch_get(client, table, store, key_ids,
                           {.key_attribute = kId, .projection = "#id, #" + std::string(kHeld)});
  const auto held_back = [&](const OutboxRecord& record) {
    if (!record.ordering_key) {
      return false;
    }
    const auto key_item = key_items.find(key_item_id(record.tenant, *record.ordering_key));
    if (key_item == key_items.end()) {
      return false;
    }
    const std::vector<std::int64_t> held = held_of(key_item->second, store);
    return std::any_of(held.begin(), held.end(),
                       [&](std::int64_t sequence) { return sequence < record.sequence; });
  };
  result.erase(
      std::remove_if(result.begin() + static_cast<std::ptrdiff_t>(first), result.end(), held_back),
      result.end());
}

}  // namespace

std::vector<OutboxRecord> claimable(const Client& client, const std::string& table,
                                    std::string_view store, Timestamp now, std::size_t limit) {
  const std::map<TenantKey, std::int64_t> parked_heads = parked_keys(client, table, store);
  std::set<TenantKey> keys_met;
  std::vector<OutboxRecord> result;
  const std::size_t page = std::max<std::size_t>(limit, 32);
  std::int64_t after = 0;
  for (int read = 0; read < kClaimPages && result.size() < limit; ++read) {
    const std::vector<nlohmann::json> items =
        query_shards(client, table,
                     {.index = kPendingIndex,
                      .shard_attribute = kPendingShard,
                      .order_condition = "#sequence > :after",
                      .values = {{":after", number_value(after)}},
                      .per_shard = page});
    const std::optional<std::int64_t> end = complete_to(items, page, store);
    const std::size_t page_first = result.size();
    for (const auto& [sequence, item] : in_order(items, end, store)) {
      if (result.size() == limit) {
        break;
      }
      OutboxRecord record = record_of(*item, store);
      if (record.ordering_key) {
        const TenantKey key{record.tenant, *record.ordering_key};
        const auto parked = parked_heads.find(key);
        if (!keys_met.insert(key).second ||
            (parked != parked_heads.end() && parked->second < sequence)) {
          continue;
        }
      }
      const auto lease_until = ItemReader(*item, store).optional_number("lease_until");
      if (record.next_attempt_at <= now && (!lease_until || *lease_until <= kit::to_micros(now))) {
        result.push_back(std::move(record));
      }
    }
    drop_held_back(client, table, store, result, page_first);
    if (!end) {
      break;  // every pending message was read
    }
    after = *end;
  }
  return result;
}

}  // namespace docket::dynamodb::detail::outbox
