// The outbox's key items (cosmos_outbox_key_item.h).
#include "providers/cosmos/cosmos_outbox_key_item.h"

#include <string>

#include "docket/core/error.h"
#include "keys/cosmos_key.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_unit.h"

namespace docket::cosmos::detail::outbox {
namespace {

// What a key item's operation holds beside its id (twice) and partition (twice): the
// property names, the table, an etag, a sequence of up to 19 digits and the JSON framing.
constexpr std::size_t kKeyItemOperationOverhead = 320;

}  // namespace

std::string key_item_id(std::string_view tenant, std::string_view ordering_key) {
  return keys::compose_cosmos_outbox_key_item_id(tenant, ordering_key).value;
}

KeyItemRead read_key_item(const KeyItemPlace& place, std::string_view id) {
  const std::optional<ReadItem> read = read_item(
      place.client, {.container = place.container, .id = id, .partition_key = place.partition});
  if (!read) {
    return {};
  }
  const std::string field(kLastSequence);
  if (!read->body.is_object() || !read->body.contains(field) ||
      !read->body[field].is_number_integer()) {
    throw InfrastructureError(std::string(place.store) + ": the outbox key item '" +
                              std::string(id) + "' in partition '" + std::string(place.partition) +
                              "' holds no integer '" + field +
                              "'; was it changed outside docket? Nothing was written");
  }
  return {.etag = read->etag, .last_sequence = read->body[field].get<std::int64_t>()};
}

nlohmann::json key_item_operation(std::string_view id, std::string_view partition,
                                  const KeyItemRead& read, std::int64_t last_sequence) {
  nlohmann::json operation = {{"operationType", read.etag ? "Replace" : "Create"},
                              {"id", id},
                              {"partitionKey", partition_key_header(partition)},
                              {"resourceBody",
                               {{"id", id},
                                {kPartitionProperty, partition},
                                {kTableProperty, kOutboxKeyTable},
                                {kLastSequence, last_sequence}}}};
  if (read.etag) {
    operation["ifMatch"] = *read.etag;
  }
  return operation;
}

std::size_t key_item_operation_bytes(std::string_view id, std::string_view partition) {
  return 2 * (id.size() + partition.size()) + kKeyItemOperationOverhead;
}

}  // namespace docket::cosmos::detail::outbox
