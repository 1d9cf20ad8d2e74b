// The outbox's reads and writes of its messages (cosmos_outbox_messages.h).
#include "providers/cosmos/cosmos_outbox_messages.h"

#include <utility>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/outbox/outbox_schema.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_item.h"
#include "providers/cosmos/cosmos_unit.h"

namespace docket::cosmos::detail::outbox {
namespace {

// Each refused write means another writer changed the message in between; one refused
// this often in a row is starved, and says so rather than spin.
constexpr int kMaxMessageRaces = 100;

FoundMessage found_of(const MessagePlace& place, nlohmann::json item) {
  FoundMessage found{.row = outbox_row_of(item, place.store),
                     .partition = item.value(std::string(kPartitionProperty), std::string()),
                     .etag = item.value("_etag", std::string())};
  return found;
}

}  // namespace

std::vector<FoundMessage> query_messages(const MessagePlace& place, std::string_view condition,
                                         nlohmann::json parameters, std::string_view order,
                                         std::size_t limit, PartitionRangeCache* range_cache) {
  std::string sql =
      "SELECT * FROM c WHERE c.docketTable = @table AND (" + std::string(condition) + ")";
  Query query{.container = place.container, .sql = {}, .parameters = std::move(parameters)};
  query.range_cache = range_cache;
  if (!order.empty()) {
    sql += " ORDER BY " + std::string(order);
    // Merged over the partition key ranges on the property ordered by (cosmos_items.h).
    query.order = OrderBy{.path = std::string(order.substr(order.starts_with("c.") ? 2 : 0))};
  }
  query.sql = std::move(sql);
  query.parameters.push_back({{"name", "@table"}, {"value", kOutboxTable}});
  std::vector<FoundMessage> found;
  for (nlohmann::json& item : query_items(place.client, query, limit)) {
    found.push_back(found_of(place, std::move(item)));
  }
  return found;
}

std::optional<FoundMessage> find_message(const MessagePlace& place, std::string_view id) {
  if (!Uuid::parse(id)) {
    return std::nullopt;  // no message has it: message ids are UUIDs
  }
  std::vector<FoundMessage> found =
      query_messages(place, "c.id = @id", {{{"name", "@id"}, {"value", id}}}, "", 1);
  if (found.empty()) {
    return std::nullopt;
  }
  return std::move(found.front());
}

nlohmann::json message_item(std::string_view partition, const kit::OutboxRow& row) {
  nlohmann::json item = outbox_item(row);
  item["id"] = row.record.id;
  item[std::string(kPartitionProperty)] = partition;
  return item;
}

bool rewrite_message(const MessagePlace& place, const FoundMessage& message,
                     const kit::OutboxRow& changed) {
  const nlohmann::json item = message_item(message.partition, changed);
  return replace_item(place.client,
                      {.container = place.container,
                       .id = changed.record.id,
                       .partition_key = message.partition},
                      item, message.etag)
      .has_value();
}

bool change_message(const MessagePlace& place, FoundMessage message,
                    const std::function<bool(kit::OutboxRow&)>& change) {
  for (int race = 0; race < kMaxMessageRaces; ++race) {
    kit::OutboxRow row = message.row;
    if (!change(row)) {
      return false;
    }
    if (rewrite_message(place, message, row)) {
      return true;
    }
    std::optional<ReadItem> again = read_item(place.client, {.container = place.container,
                                                             .id = message.row.record.id,
                                                             .partition_key = message.partition});
    if (!again) {
      return false;  // deleted meanwhile (retention)
    }
    message.row = outbox_row_of(again->body, place.store);
    message.etag = std::move(again->etag);
  }
  throw InfrastructureError(place.store + ": message '" + message.row.record.id +
                            "' changed under each of " + std::to_string(kMaxMessageRaces) +
                            " attempts to change it; retry later");
}

}  // namespace docket::cosmos::detail::outbox
