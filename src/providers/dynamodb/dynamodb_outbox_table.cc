#include "providers/dynamodb/dynamodb_outbox_table.h"

#include <string>

#include "docket/core/error.h"
#include "docket/outbox/outbox_schema.h"
#include "keys/dynamodb_key.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/kit/outbox_row.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::outbox {
namespace {

GlobalIndex shard_index(std::string_view name, std::string_view shard, std::string_view order) {
  return {std::string(name),
          {std::string(shard), KeyType::kNumber},
          KeyAttribute{std::string(order), KeyType::kNumber}};
}

}  // namespace

TableSchema outbox_table_schema(const StoreUrl& url) {
  return TableSchema{.name = url.table_name(kOutboxTable),
                     .partition_key = {std::string(kId), KeyType::kString},
                     .sort_key = std::nullopt,
                     .global_indexes = {shard_index(kPendingIndex, kPendingShard, kSequence),
                                        shard_index(kParkedIndex, kParkedShard, kSequence),
                                        shard_index(kDoneIndex, kDoneShard, kDoneAt),
                                        shard_index(kFeedIndex, kFeedShard, kSequence)}};
}

nlohmann::json message_key(std::string_view id) {
  return {{std::string(kId), string_value(id)}};
}

SequenceCounter sequence_counter(std::string_view table) {
  return {.table = std::string(table),
          .key = message_key(kCounterId),
          .attribute = std::string(kLastSequence)};
}

nlohmann::json key_item_key(std::string_view tenant, std::string_view ordering_key) {
  return message_key(keys::compose_dynamodb_outbox_key_item(tenant, ordering_key).value);
}

std::optional<SequenceHold> hold_of(std::string_view table, const OutboxRecord& record) {
  if (!record.ordering_key) {
    return std::nullopt;
  }
  return SequenceHold{
      .table = std::string(table),
      .key = key_item_key(record.tenant, *record.ordering_key),
      .set_attribute = std::string(kHeld),
      .last_attribute = std::string(kLastHeld),
      .max_held = kMaxHeldPerKey,
      .what = "ordering key '" + *record.ordering_key + "' of tenant '" + record.tenant + "'"};
}

std::vector<std::int64_t> held_of(const nlohmann::json& item, std::string_view store) {
  std::vector<std::int64_t> held;
  const auto set = item.find(kHeld);
  if (set == item.end()) {
    return held;
  }
  const auto numbers = set->find("NS");
  if (numbers == set->end() || !numbers->is_array()) {
    throw InfrastructureError(
        std::string(store) + ": key item " + item.value("id", nlohmann::json()).dump() +
        " has a '" + std::string(kHeld) + "' that is no number set; docket did not write it");
  }
  for (const nlohmann::json& number : *numbers) {
    held.push_back(ItemReader({{"n", {{"N", number}}}}, store).number("n"));
  }
  return held;
}

void number_item(nlohmann::json& item, std::int64_t sequence) {
  const nlohmann::json shard = number_value(sequence % kShards);
  item[std::string(kSequence)] = number_value(sequence);
  item[std::string(kFeedShard)] = shard;
  item[std::string(kPendingShard)] = shard;
}

nlohmann::json message_item(const TableSchema& schema, const OutboxRecord& record) {
  using kit::to_micros;
  nlohmann::json item = message_key(record.id);
  item["tenant"] = string_value(record.tenant);
  item["event_type"] = string_value(record.event_type);
  item["payload"] = binary_value(record.payload);
  item["occurred_at"] = number_value(to_micros(record.occurred_at));
  item["created_at"] = number_value(to_micros(record.created_at));
  const auto optional = [&](const char* name, const std::optional<std::string>& value) {
    if (value) {
      item[name] = string_value(*value);
    }
  };
  optional("source", record.source);
  optional("causation_id", record.causation_id);
  optional("correlation_id", record.correlation_id);
  if (!record.traceparent.empty()) {
    item["traceparent"] = string_value(record.traceparent);
  }
  if (!record.tracestate.empty()) {
    item["tracestate"] = string_value(record.tracestate);
  }
  if (!record.destination.empty()) {
    item[std::string(kDestination)] = string_value(record.destination);
  }
  optional(kOrderingKey.data(), record.ordering_key);
  if (!record.headers.empty()) {
    item[std::string(kHeaders)] = string_value(kit::encode_headers(record.headers));
  }
  item[std::string(kStatus)] = number_value(kit::outbox_status_code(OutboxStatus::kPending));
  item["attempts"] = number_value(0);
  item["next_attempt_at"] = number_value(to_micros(record.next_attempt_at));
  number_item(item, record.sequence);
  check_item(schema, item);
  return item;
}

OutboxRecord record_of(const nlohmann::json& item, std::string_view store) {
  using kit::from_micros;
  const ItemReader read(item, store);
  OutboxRecord record;
  record.sequence = read.number(kSequence);
  record.id = read.string(kId);
  record.tenant = read.string("tenant");
  record.event_type = read.string("event_type");
  record.payload = read.binary("payload");
  record.occurred_at = from_micros(read.number("occurred_at"));
  const auto optional = [&](std::string_view name) -> std::optional<std::string> {
    if (const auto value = read.optional_string(name)) {
      return std::string(*value);
    }
    return std::nullopt;
  };
  record.source = optional("source");
  record.causation_id = optional("causation_id");
  record.correlation_id = optional("correlation_id");
  record.traceparent = optional("traceparent").value_or("");
  record.tracestate = optional("tracestate").value_or("");
  record.created_at = from_micros(read.number("created_at"));
  record.status = kit::outbox_status_of_code(read.number(kStatus), store);
  record.attempts = static_cast<int>(read.number("attempts"));
  record.next_attempt_at = from_micros(read.number("next_attempt_at"));
  record.last_error = optional("last_error");
  if (const auto done_at = read.optional_number(kDoneAt)) {
    record.done_at = from_micros(*done_at);
  }
  // Absent on an item staged before routing existed: the default route, no key, none.
  record.destination = optional(kDestination).value_or("");
  record.ordering_key = optional(kOrderingKey);
  record.headers = kit::decode_headers(optional(kHeaders).value_or(""));
  return record;
}

}  // namespace docket::dynamodb::detail::outbox
