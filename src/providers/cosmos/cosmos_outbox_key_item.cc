// The outbox's key items (cosmos_outbox_key_item.h).
#include "providers/cosmos/cosmos_outbox_key_item.h"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "keys/cosmos_key.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_item.h"
#include "providers/cosmos/cosmos_unit.h"

namespace docket::cosmos::detail::outbox {
namespace {

// What a key item's operation holds beside its id (twice) and partition (twice): the
// property names, the table, an etag, a sequence of up to 19 digits and the JSON framing.
constexpr std::size_t kKeyItemOperationOverhead = 320;

// The key item's body with lastSequence `last_sequence`.
nlohmann::json key_item_body(std::string_view id, std::string_view partition,
                             std::int64_t last_sequence) {
  return {{"id", id},
          {kPartitionProperty, partition},
          {kTableProperty, kOutboxKeyTable},
          {kLastSequence, last_sequence}};
}

// How many times read_or_create_key_item reads and creates when another unit's create
// and a removal keep crossing it (each turn means another writer made progress).
constexpr int kReadOrCreateTurns = 10;

}  // namespace

std::string key_item_id(std::string_view tenant, std::string_view ordering_key) {
  return keys::compose_cosmos_outbox_key_item_id(tenant, ordering_key).value;
}

KeyItemRead read_or_create_key_item(const KeyItemPlace& place, std::string_view id) {
  const ItemAddress address{
      .container = place.container, .id = id, .partition_key = place.partition};
  for (int turn = 0; turn < kReadOrCreateTurns; ++turn) {
    if (const std::optional<ReadItem> read = read_item(place.client, address)) {
      const std::string field(kLastSequence);
      if (!read->body.is_object() || !read->body.contains(field) ||
          !read->body[field].is_number_integer()) {
        throw InfrastructureError(std::string(place.store) + ": the outbox key item '" +
                                  std::string(id) + "' in partition '" +
                                  std::string(place.partition) + "' holds no integer '" + field +
                                  "'; was it changed outside docket? Nothing was written");
      }
      return {.id = std::string(id),
              .etag = read->etag,
              .last_sequence = read->body[field].get<std::int64_t>()};
    }
    // None: create it, so that the batch writes it under an etag, never on its absence
    // (cosmos_outbox_key_item.h, "Removal").
    if (std::optional<std::string> etag =
            create_item(place.client, address, key_item_body(id, place.partition, 0))) {
      return {.id = std::string(id), .etag = std::move(*etag), .created = true};
    }
    // A concurrent unit created it first: read it.
  }
  throw InfrastructureError(std::string(place.store) + ": the outbox key item '" + std::string(id) +
                            "' in partition '" + std::string(place.partition) +
                            "' was created and deleted under every one of " +
                            std::to_string(kReadOrCreateTurns) +
                            " reads; nothing of the unit of work was written; retry it later");
}

void forget_created(const KeyItemPlace& place, const KeyItemRead& read) noexcept {
  if (!read.created) {
    return;
  }
  try {
    delete_item(place.client,
                {.container = place.container, .id = read.id, .partition_key = place.partition},
                read.etag);
  } catch (...) {  // NOLINT(bugprone-empty-catch): best effort, as documented
  }
}

bool forget_if_unheld(const KeyItemPlace& place, std::string_view tenant,
                      std::string_view ordering_key) {
  const std::string id = key_item_id(tenant, ordering_key);
  // One query of the partition for the key item (its etag) and a message holding the key:
  // two results at most answer it (the key item and one holder, or two holders).
  const std::vector<nlohmann::json> found = query_items(
      place.client,
      {.container = place.container,
       .sql = "SELECT c.id, c._etag, c." + std::string(kTableProperty) + " FROM c WHERE c." +
              std::string(kPartitionProperty) + " = @pk AND ((c." + std::string(kTableProperty) +
              " = @keyTable AND c.id = @id) OR (c." + std::string(kTableProperty) +
              " = @table AND c.tenant = @tenant AND c.orderingKey = @key AND (c." +
              std::string(kPendingSequence) + " > 0 OR c." + std::string(kParkedSequence) +
              " > 0)))",
       .parameters = {{{"name", "@pk"}, {"value", place.partition}},
                      {{"name", "@keyTable"}, {"value", kOutboxKeyTable}},
                      {{"name", "@id"}, {"value", id}},
                      {{"name", "@table"}, {"value", kOutboxTable}},
                      {{"name", "@tenant"}, {"value", tenant}},
                      {{"name", "@key"}, {"value", ordering_key}}},
       .partition = std::string(place.partition)},
      2);
  if (found.size() != 1 ||
      found.front().value(std::string(kTableProperty), std::string()) != kOutboxKeyTable) {
    return false;  // no key item, or a message holds the key
  }
  // Under the etag the query gave: a unit that committed a message of the key since
  // changed it, and keeps it.
  return delete_item(place.client,
                     {.container = place.container, .id = id, .partition_key = place.partition},
                     found.front().value("_etag", std::string()));
}

void forget_unheld(const Client& client, std::string_view container, std::string_view store,
                   const std::set<KeyOfMessage>& keys) noexcept {
  for (const KeyOfMessage& key : keys) {
    try {
      forget_if_unheld(
          {.client = client, .container = container, .partition = key.partition, .store = store},
          key.tenant, key.ordering_key);
    } catch (const std::exception&) {  // NOLINT(bugprone-empty-catch): best effort, as documented
    }
  }
}

nlohmann::json key_item_operation(std::string_view partition, const KeyItemRead& read,
                                  std::int64_t last_sequence) {
  return {{"operationType", "Replace"},
          {"id", read.id},
          {"partitionKey", partition_key_header(partition)},
          {"resourceBody", key_item_body(read.id, partition, last_sequence)},
          {"ifMatch", read.etag}};
}

std::size_t key_item_operation_bytes(std::string_view id, std::string_view partition) {
  return 2 * (id.size() + partition.size()) + kKeyItemOperationOverhead;
}

}  // namespace docket::cosmos::detail::outbox
