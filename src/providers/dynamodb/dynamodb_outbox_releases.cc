#include "providers/dynamodb/dynamodb_outbox_releases.h"

#include <cstddef>
#include <optional>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"

namespace docket::dynamodb::detail::outbox {
namespace {

// The most leased messages remembered (about 200 bytes each).
constexpr std::size_t kMaxRemembered = 16384;

}  // namespace

Releasing releasing_of(const nlohmann::json& item, nlohmann::json action, std::string_view store) {
  const ItemReader reader(item, store);
  Releasing change{
      .action = std::move(action), .key_item = std::nullopt, .sequence = reader.number(kSequence)};
  if (const auto key = reader.optional_string(kOrderingKey)) {
    change.key_item = key_item_key(reader.string("tenant"), *key);
  }
  return change;
}

LeasedReleases::LeasedReleases(const Client& client, std::string table, std::string store)
    : client_(client), table_(std::move(table)), store_(std::move(store)) {}

void LeasedReleases::remember(const OutboxRecord& record) {
  Releasing change{.action = nullptr, .key_item = std::nullopt, .sequence = record.sequence};
  if (record.ordering_key) {
    change.key_item = key_item_key(record.tenant, *record.ordering_key);
  }
  const std::lock_guard lock(mutex_);
  if (leased_.size() >= kMaxRemembered) {
    leased_.clear();
  }
  leased_.insert_or_assign(record.id, std::move(change));
}

void LeasedReleases::forget(std::string_view id) {
  const std::lock_guard lock(mutex_);
  leased_.erase(std::string(id));
}

std::vector<Releasing> LeasedReleases::of(
    const std::vector<std::string>& ids,
    const std::function<nlohmann::json(const std::string&)>& action) {
  std::map<std::string, Releasing> known;
  std::vector<std::string> unknown;
  {
    const std::lock_guard lock(mutex_);
    for (const std::string& id : ids) {
      if (const auto leased = leased_.find(id); leased != leased_.end()) {
        known.emplace(id, leased->second);
        leased_.erase(leased);
      } else {
        unknown.push_back(id);
      }
    }
  }
  for (auto& [id, item] : consistent_batch_get(client_, table_, store_, unknown,
                                               {.key_attribute = kId,
                                               .projection = "#id, #tenant, #ordering_key, "
                                                             "#sequence"})) {
    known.emplace(id, releasing_of(item, nullptr, store_));
  }
  std::vector<Releasing> changes;
  for (const std::string& id : ids) {
    if (const auto found = known.find(id); found != known.end()) {
      changes.push_back(found->second);
      changes.back().action = action(id);
    }
  }
  return changes;
}

}  // namespace docket::dynamodb::detail::outbox
