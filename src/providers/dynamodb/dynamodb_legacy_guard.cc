#include "providers/dynamodb/dynamodb_legacy_guard.h"

#include <utility>

#include "docket/keys/legacy.h"
#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_saga_item.h"

namespace docket::dynamodb::detail {
namespace {

// Every key docket composes for DynamoDB streams begins with the tenant segment "t:";
// sagas with "SAGA#t:". The filter keeps the rest, which the legacy predicates judge.
constexpr std::string_view kStreamTenantedPrefix = "t:";
constexpr std::string_view kSagaTenantedPrefix = "SAGA#t:";

kit::LegacyPlace table_place(const std::string& table, LegacyKeyKind kind) {
  return {.collection = table,
          .where = "DynamoDB table '" + table + "'",
          .record = kind == LegacyKeyKind::kStream ? "event item" : "saga item",
          .records = "items",
          .fresh = "table_prefix"};
}

}  // namespace

LegacyGuard::LegacyGuard(std::string table, std::string key_attribute, LegacyKeyKind kind,
                         std::size_t probe_items)
    : table_(std::move(table)),
      key_attribute_(std::move(key_attribute)),
      kind_(kind),
      probe_items_(probe_items),
      once_(table_place(table_, kind)) {}

void LegacyGuard::check(const Client& client) {
  once_.check([&] { return probe(client); });
}

nlohmann::json LegacyGuard::scan_request() const {
  const std::string_view prefix =
      kind_ == LegacyKeyKind::kStream ? kStreamTenantedPrefix : kSagaTenantedPrefix;
  return {{"TableName", table_},
          {"ConsistentRead", true},
          {"ProjectionExpression", "#key"},
          {"FilterExpression", "NOT begins_with(#key, :tenanted)"},
          {"ExpressionAttributeNames", {{"#key", key_attribute_}}},
          {"ExpressionAttributeValues", {{":tenanted", string_value(prefix)}}}};
}

bool LegacyGuard::is_legacy(std::string_view key) const {
  return kind_ == LegacyKeyKind::kStream
             ? keys::is_legacy_untenanted_stream_key(keys::Provider::kDynamoDb, key)
             : keys::is_legacy_untenanted_saga_key(keys::Provider::kDynamoDb, key);
}

std::optional<std::string> LegacyGuard::probe(const Client& client) const {
  nlohmann::json request = scan_request();
  request["Limit"] = probe_items_;
  const Response response =
      client.call({.operation = "Scan", .table = table_, .replay = Replay::kSafe}, request);
  const auto items = response.body().find("Items");
  if (items == response.body().end()) {
    return std::nullopt;
  }
  const std::string store = "the legacy-key probe of table '" + table_ + "'";
  for (const nlohmann::json& item : *items) {
    const std::string_view key = ItemReader(item, store).string(key_attribute_);
    if (is_legacy(key)) {
      return std::string(key);
    }
  }
  return std::nullopt;
}

LegacyKeyPlace LegacyGuard::scan(const Client& client, std::size_t max_examples) const {
  const Response described = client.call({.operation = "DescribeTable",
                                          .table = table_,
                                          .replay = Replay::kSafe,
                                          .expected = {ErrorKind::kResourceNotFound}},
                                         {{"TableName", table_}});
  LegacyKeyPlace place = kit::legacy_scan_place(once_.place(), described.ok());
  if (!described.ok()) {
    return place;
  }
  const std::string store = "the legacy-key scan of table '" + table_ + "'";
  // A stream's events share its key: each key is an example once.
  kit::LegacyKeyTally tally(place, max_examples);
  Pager pager = Pager::scan(client, scan_request());
  while (const std::optional<nlohmann::json> page = pager.next_page()) {
    for (const nlohmann::json& item : *page) {
      const std::string_view key = ItemReader(item, store).string(key_attribute_);
      if (is_legacy(key)) {
        tally.add(key, key);
      }
    }
  }
  return place;
}

LegacyScan scan_legacy_tables(std::string_view url, std::size_t max_examples) {
  const Client client(parse_store_url(url));
  const LegacyGuard streams(client.url().table_name(kEventsTableBase),
                            std::string(kStreamAttribute), LegacyKeyKind::kStream);
  const LegacyGuard sagas(saga::saga_table_schema(client.url()).name, std::string(saga::kKey),
                          LegacyKeyKind::kSaga);
  return LegacyScan{
      .provider = "dynamodb",
      .places = {streams.scan(client, max_examples), sagas.scan(client, max_examples)}};
}

}  // namespace docket::dynamodb::detail
