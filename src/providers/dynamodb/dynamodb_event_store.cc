#include "providers/dynamodb/dynamodb_event_store.h"

#include <algorithm>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_item_size.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_unit.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/unit_streams.h"

namespace docket::dynamodb::detail {
namespace {

// A transaction cancelled by another one in flight on the same items (not by a
// condition) is sent again, with a new token, at most this often; so is an
// any-version append that a concurrent appender overtook between its read and write.
constexpr int kMaxAttempts = 25;

// Whether a cancelled transaction failed a condition (rather than only meeting
// another transaction in flight).
bool condition_failed(const Response& response) {
  if (response.error().kind == ErrorKind::kConditionalCheckFailed) {
    return true;
  }
  const auto& reasons = response.error().cancellation_reasons;
  return std::any_of(reasons.begin(), reasons.end(), [](const CancellationReason& reason) {
    return reason.code == "ConditionalCheckFailed";
  });
}

std::string stream_key_of(const StreamId& stream) {
  return kit::stream_key(keys::Provider::kDynamoDb, stream).value;
}

}  // namespace

DynamoDbEventStore::DynamoDbEventStore(std::string_view url, const Clock& clock,
                                       std::size_t probe_items, kit::RekeyMarkerCheck marker)
    : EventStore(clock),
      client_(parse_store_url(url)),
      table_(events_table_schema(client_.url().table_name(kEventsTableBase))),
      guard_(table_.name(), std::string(kStreamAttribute), LegacyKeyKind::kStream, probe_items),
      store_("DynamoDB event store (table '" + table_.name() + "' at " + client_.url().text + ")"),
      rekey_marker_(client_, store_, marker) {}

StoreCapabilities DynamoDbEventStore::capabilities() const noexcept {
  // No order over every stream (FeedKind::kNone); appends join the provider's units of
  // work; one append is one TransactWriteItems, bounded by its limits.
  return {.joins_handler_writes = true,
          .interactive_transactions = false,
          .max_writes_per_commit = kMaxTransactionActions,
          .max_bytes_per_commit = kMaxTransactionBytes,
          .max_bytes_per_record = kMaxItemBytes,
          .feed = FeedKind::kNone,
          .server_side_expiry = false,
          .shared_between_processes = true};
}

AppendResult DynamoDbEventStore::do_append(const StreamId& stream, ExpectedVersion expected,
                                           std::vector<RecordedEvent> events) {
  rekey_marker_.check(client_);
  const std::string key = stream_key_of(stream);
  table_.ensure(client_);
  if (expected.is_no_stream()) {
    guard_.check(client_);  // a create that assumes nothing is there
  }
  for (int attempt = 1;; ++attempt) {
    const std::int64_t base = expected.is_any() ? current_version(key) : expected.value();
    if (expected.is_any() && base == kNoStreamVersion) {
      guard_.check(client_);  // a version read that found nothing
    }
    // One event starting a stream needs no transaction: a PutItem conditional on the
    // item's absence is the whole check, at half a transaction's cost.
    const bool first_event_alone = base == kNoStreamVersion && events.size() == 1;
    const Response response =
        first_event_alone
            ? client_.call({.operation = "PutItem",
                            .table = table_.name(),
                            // a resend that finds its own first try is told apart below
                            .replay = Replay::kSafe},
                           first_event_put(key, events.front()))
            : client_.call(
                  {.operation = "TransactWriteItems",
                   .table = table_.name(),
                   .replay = Replay::kSafe,  // the ClientRequestToken makes a resend apply once
                   .expected = {ErrorKind::kConditionalCheckFailed, ErrorKind::kTransactionCanceled,
                                ErrorKind::kTransactionConflict}},
                  transaction(key, base, events));
    if (response.ok() || (first_event_alone &&
                          refusal_holds_event(response.error(), stream, events.front(), store_))) {
      AppendSuccess success{.new_version = events.back().version, .events = {}};
      success.events.reserve(events.size());
      for (const RecordedEvent& event : events) {
        success.events.push_back({event.version, 0, event.event_id, event.occurred_at});
      }
      return success;
    }
    const bool lost_race = condition_failed(response);
    if (attempt < kMaxAttempts && (!lost_race || expected.is_any())) {
      continue;  // another transaction in flight, or an any-version append overtaken
    }
    if (!lost_race) {
      throw InfrastructureError(store_ + ": an append to " + stream.describe() + " met " +
                                std::to_string(kMaxAttempts) +
                                " concurrent transactions on the same items in a row and "
                                "was not applied; retry later");
    }
    return VersionConflict{.subject = "append to " + stream.describe(),
                           .expected_version = expected.value(),
                           .actual_version = current_version(key)};
  }
}

AppendResult DynamoDbEventStore::do_append_in(HandlerTransaction& transaction,
                                              const StreamId& stream, ExpectedVersion expected,
                                              std::vector<RecordedEvent> events) {
  detail::Unit& unit = detail::joined_unit(transaction, client_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
  rekey_marker_.check(client_);
  const std::string key = stream_key_of(stream);
  table_.ensure(client_);
  const auto read = [&] {
    const std::int64_t version = current_version(key);
    if (version == kNoStreamVersion) {
      guard_.check(client_);  // a version read that found nothing
    }
    return version;
  };
  if (auto conflict =
          unit.streams().number(unit.staged_actions(), key, read, stream, expected, events)) {
    return std::move(*conflict);
  }
  for (const RecordedEvent& event : events) {
    unit.stage_event(table_.schema(), event_item(key, event),
                     {.stream_key = key, .stream = stream.describe(), .version = event.version});
  }
  return kit::appended(events);
}

nlohmann::json DynamoDbEventStore::transaction(const std::string& stream_key, std::int64_t base,
                                               std::vector<RecordedEvent>& events) const {
  const bool checks_base = base != kNoStreamVersion;
  const std::size_t actions = events.size() + (checks_base ? 1 : 0);
  if (actions > kMaxTransactionActions) {
    throw InvalidInputError(
        store_ + ": an append of " + std::to_string(events.size()) + " events" +
        (checks_base ? " after version " + std::to_string(base) : std::string()) + " needs " +
        std::to_string(actions) + " actions in one TransactWriteItems, and DynamoDB " +
        "takes at most " + std::to_string(kMaxTransactionActions) +
        " (one per event, plus one to check the expected version of a stream that exists). "
        "Nothing was written. Append at most " +
        std::to_string(kMaxTransactionActions - 1) + " events per call.");
  }
  nlohmann::json items = nlohmann::json::array();
  std::size_t bytes = 0;
  if (checks_base) {
    nlohmann::json key = event_key(stream_key, base);
    check_key(table_.schema(), key);
    items.push_back({{"ConditionCheck",
                      {{"TableName", table_.name()},
                       {"Key", std::move(key)},
                       {"ConditionExpression", "attribute_exists(#stream)"},
                       {"ExpressionAttributeNames", {{"#stream", kStreamAttribute}}}}}});
  }
  for (std::size_t i = 0; i < events.size(); ++i) {
    events[i].version = base + 1 + static_cast<std::int64_t>(i);
    nlohmann::json item = event_item(stream_key, events[i]);
    check_item(table_.schema(), item);
    bytes += item_size(item);
    items.push_back({{"Put",
                      {{"TableName", table_.name()},
                       {"Item", std::move(item)},
                       {"ConditionExpression", "attribute_not_exists(#stream)"},
                       {"ExpressionAttributeNames", {{"#stream", kStreamAttribute}}}}}});
  }
  if (bytes > kMaxTransactionBytes) {
    throw InvalidInputError(store_ + ": an append of " + std::to_string(events.size()) +
                            " events is " + std::to_string(bytes) +
                            " bytes as DynamoDB counts its items, and one TransactWriteItems "
                            "holds at most " +
                            std::to_string(kMaxTransactionBytes) +
                            ". Nothing was written. Append fewer or smaller events per call.");
  }
  // A token per attempt (a UUID, 36 characters of DynamoDB's 1..36): the client's resend
  // of this request after an ambiguous failure carries the same token and is applied
  // once; a deliberate new attempt (after a cancellation) carries a new one.
  return {{"TransactItems", std::move(items)}, {"ClientRequestToken", Uuid::v4().to_string()}};
}

nlohmann::json DynamoDbEventStore::first_event_put(const std::string& stream_key,
                                                   RecordedEvent& event) const {
  event.version = 0;
  nlohmann::json item = event_item(stream_key, event);
  check_item(table_.schema(), item);
  return first_event_put_request(table_.name(), std::move(item));
}

std::int64_t DynamoDbEventStore::current_version(const std::string& stream_key) {
  const Response response =
      client_.call({.operation = "Query", .table = table_.name(), .replay = Replay::kSafe},
                   {{"TableName", table_.name()},
                    {"KeyConditionExpression", "#stream = :stream"},
                    {"ExpressionAttributeNames",
                     {{"#stream", kStreamAttribute}, {"#version", kVersionAttribute}}},
                    {"ExpressionAttributeValues", {{":stream", string_value(stream_key)}}},
                    {"ProjectionExpression", "#version"},
                    {"ScanIndexForward", false},
                    {"Limit", 1},
                    {"ConsistentRead", true}});
  const auto items = response.body().find("Items");
  if (items != response.body().end()) {
    for (const nlohmann::json& item : *items) {  // at most one: Limit 1
      return ItemReader(item, store_).number(kVersionAttribute);
    }
  }
  return kNoStreamVersion;
}

std::vector<RecordedEvent> DynamoDbEventStore::do_load(const StreamId& stream,
                                                       std::int64_t from_version) {
  rekey_marker_.check(client_);
  const std::string key = stream_key_of(stream);
  table_.ensure(client_);
  const nlohmann::json items =
      query_all(client_, {{"TableName", table_.name()},
                          {"KeyConditionExpression", "#stream = :stream AND #version >= :from"},
                          {"ExpressionAttributeNames",
                           {{"#stream", kStreamAttribute}, {"#version", kVersionAttribute}}},
                          {"ExpressionAttributeValues",
                           {{":stream", string_value(key)}, {":from", number_value(from_version)}}},
                          {"ConsistentRead", true}});
  std::vector<RecordedEvent> events;
  events.reserve(items.size());
  for (const nlohmann::json& item : items) {
    events.push_back(read_event_item(item, stream, store_));
  }
  if (events.empty()) {
    guard_.check(client_);  // a load that came back empty
  }
  return events;
}

std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock) {
  return std::make_unique<DynamoDbEventStore>(url, clock);
}

}  // namespace docket::dynamodb::detail
