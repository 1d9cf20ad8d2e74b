#include "providers/dynamodb/dynamodb_unit.h"

#include <algorithm>
#include <utility>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "providers/dynamodb/dynamodb_item_size.h"
#include "providers/dynamodb/dynamodb_limits.h"

namespace docket::dynamodb::detail {
namespace {

// The #names and :values of an action's expressions, gathered into the one map of each
// that DynamoDB takes per action.
struct Placeholders {
  nlohmann::json names = nlohmann::json::object();
  nlohmann::json values = nlohmann::json::object();
  std::size_t value_bytes = 0;

  void add(const Expression& expression, const std::string& what) {
    if (expression.text.empty()) {
      throw InvalidInputError(what + ": an expression is empty; give its text or leave it out");
    }
    merge(names, expression.names, "names", what);
    merge(values, expression.values, "values", what);
  }

  // Adds the maps to an action's body, where not empty (DynamoDB refuses empty ones).
  void into(nlohmann::json& body) const {
    if (!names.empty()) {
      body["ExpressionAttributeNames"] = names;
    }
    if (!values.empty()) {
      body["ExpressionAttributeValues"] = values;
    }
  }

 private:
  void merge(nlohmann::json& into, const nlohmann::json& from, std::string_view kind,
             const std::string& what) {
    if (!from.is_object()) {
      throw InvalidInputError(what + ": expression " + std::string(kind) +
                              " must be a JSON object of placeholder to " +
                              (kind == "names" ? "attribute name" : "DynamoDB JSON value"));
    }
    for (const auto& [placeholder, value] : from.items()) {
      const auto known = into.find(placeholder);
      if (known != into.end()) {
        if (*known != value) {
          throw InvalidInputError(what + ": placeholder '" + placeholder +
                                  "' means two things in the update and its condition; give "
                                  "each meaning its own placeholder");
        }
        continue;
      }
      if (kind == "names" && !value.is_string()) {
        throw InvalidInputError(what + ": placeholder '" + placeholder +
                                "' must name an attribute (a JSON string)");
      }
      if (kind == "values") {
        value_bytes += attribute_value_size(value, placeholder);
      }
      into[placeholder] = value;
    }
  }
};

// The item's primary key (check_item has made sure it is there).
nlohmann::json key_of(const TableSchema& schema, const nlohmann::json& item) {
  nlohmann::json key = {{schema.partition_key.name, item.at(schema.partition_key.name)}};
  if (schema.sort_key) {
    key[schema.sort_key->name] = item.at(schema.sort_key->name);
  }
  return key;
}

// The most bytes a 64-bit sequence takes as a DynamoDB number (one per two of its 19
// digits, plus one).
constexpr std::size_t kSequenceBytes = 11;

std::string item_id(std::string_view table, const nlohmann::json& key) {
  return std::string(table) + '\n' + key.dump();
}

}  // namespace

Unit::Unit(const UnitContext& context)
    : context_(context),
      staging_(context.store, kit::CommitLimits{"the DynamoDB inbox", kMaxTransactionActions,
                                                kMaxTransactionBytes}),
      tx_(TransactionAccess::transaction_on(*this)) {}

void Unit::put(std::string_view table, nlohmann::json item, std::optional<Expression> condition,
               Role role, std::optional<SequencedItem> sequenced) {
  const TableSchema& schema = context_.schemas.of(table);
  check_item(schema, item);
  nlohmann::json key = key_of(schema, item);
  const std::size_t bytes = item_size(item);
  if (role == Role::kInsert) {
    condition = Expression{.text = "attribute_not_exists(#docket_key)",
                           .names = {{"#docket_key", schema.partition_key.name}},
                           .values = nlohmann::json::object()};
  }
  std::optional<SequenceHold> hold = sequenced ? sequenced->hold : std::nullopt;
  if (!hold || holds(hold->table, hold->key)) {
    stage(schema, key, "Put", {{"Item", std::move(item)}}, std::move(condition), role, bytes,
          std::nullopt, std::move(sequenced));
    return;
  }
  SequenceCounter counter = sequenced->counter;
  // The put and its hold action (one per holding item: the unit's later puts of this
  // hold join it) are staged together or not at all, so a unit refused at its 100th
  // action holds no message without its hold.
  staging_.begin_savepoint();
  try {
    stage(schema, key, "Put", {{"Item", std::move(item)}}, std::move(condition), role, bytes,
          std::nullopt, std::move(sequenced));
    const TableSchema& hold_schema = context_.schemas.of(hold->table);
    check_key(hold_schema, hold->key);
    // Its size at commit: the key and the most sequences a unit can add.
    const std::size_t hold_bytes = item_size(hold->key) + kMaxTransactionActions * kSequenceBytes;
    nlohmann::json hold_key = hold->key;
    stage(hold_schema, hold_key, "Update", nlohmann::json::object(), std::nullopt, Role::kHold,
          hold_bytes, std::nullopt,
          SequencedItem{.counter = std::move(counter), .number = nullptr, .hold = std::move(hold)});
  } catch (...) {
    staging_.rollback_savepoint();
    throw;
  }
  staging_.release_savepoint();
}

void Unit::update(std::string_view table, nlohmann::json key, Expression update,
                  std::optional<Expression> condition) {
  const TableSchema& schema = context_.schemas.of(table);
  check_key(schema, key);
  const std::string what =
      context_.store + ": Update of " + key.dump() + " in table '" + schema.name + "'";
  Placeholders placeholders;
  placeholders.add(update, what);
  nlohmann::json body = {{"UpdateExpression", update.text}};
  placeholders.into(body);
  stage(schema, key, "Update", std::move(body), std::move(condition), Role::kWrite,
        item_size(key) + placeholders.value_bytes);
}

void Unit::remove(std::string_view table, nlohmann::json key, std::optional<Expression> condition) {
  const TableSchema& schema = context_.schemas.of(table);
  check_key(schema, key);
  stage(schema, key, "Delete", nlohmann::json::object(), std::move(condition), Role::kWrite,
        item_size(key));
}

void Unit::condition_check(std::string_view table, nlohmann::json key, Expression condition) {
  const TableSchema& schema = context_.schemas.of(table);
  check_key(schema, key);
  stage(schema, key, "ConditionCheck", nlohmann::json::object(), std::move(condition), Role::kWrite,
        item_size(key));
}

void Unit::stage_dedup(const TableSchema& schema, nlohmann::json item) {
  nlohmann::json key = key_of(schema, item);
  const std::size_t bytes = item_size(item);
  stage(schema, key, "Put",
        {{"Item", std::move(item)},
         {"ConditionExpression", "attribute_not_exists(#id)"},
         {"ExpressionAttributeNames", {{"#id", schema.partition_key.name}}}},
        std::nullopt, Role::kDedup, bytes);
}

void Unit::stage(const TableSchema& schema, const nlohmann::json& key, std::string_view operation,
                 nlohmann::json body, std::optional<Expression> condition, Role role,
                 std::size_t bytes, std::optional<kit::StagedEvent> event,
                 std::optional<SequencedItem> sequenced) {
  staging_.require_open(operation);
  Action action{
      .request = nlohmann::json::object(),
      .item = item_id(schema.name, key),
      .table = schema.name,
      .what = std::string(operation) + " of " + key.dump() + " in table '" + schema.name + "'",
      .condition = {},
      .role = role,
      .event = std::move(event),
      .sequenced = std::move(sequenced)};
  if (holds(schema.name, key)) {
    if (role != Role::kWrite) {
      throw UniqueViolationError(schema.name, context_.store + ": " + action.what +
                                                  ": this unit of work writes an item with that "
                                                  "key already; nothing was written");
    }
    throw InvalidInputError(context_.store + ": " + action.what +
                            ": this unit of work has an action on that item already, and one "
                            "DynamoDB transaction takes one action per item; make it one write");
  }
  if (condition) {
    Placeholders placeholders;
    placeholders.names = body.value("ExpressionAttributeNames", nlohmann::json::object());
    placeholders.values = body.value("ExpressionAttributeValues", nlohmann::json::object());
    placeholders.add(*condition, context_.store + ": " + action.what);
    placeholders.into(body);
    body["ConditionExpression"] = condition->text;
    action.condition = condition->text;
    bytes += placeholders.value_bytes;
  } else if (const auto text = body.find("ConditionExpression"); text != body.end()) {
    action.condition = text->get<std::string>();
  }
  body["TableName"] = schema.name;
  if (!body.contains("Item")) {
    body["Key"] = key;
  }
  action.request = {{std::string(operation), std::move(body)}};
  staging_.writes().add(std::move(action), 1, bytes);
}

void Unit::stage_event(const TableSchema& schema, nlohmann::json item, kit::StagedEvent event) {
  check_item(schema, item);
  nlohmann::json key = key_of(schema, item);
  const std::size_t bytes = item_size(item);
  stage(schema, key, "Put",
        {{"Item", std::move(item)},
         {"ConditionExpression", "attribute_not_exists(#stream)"},
         {"ExpressionAttributeNames", {{"#stream", schema.partition_key.name}}}},
        std::nullopt, Role::kEvent, bytes, std::move(event));
}

void Unit::stage_saga(UnitSagas::Save save, std::size_t bytes) {
  staging_.require_open("save a saga");
  UnitSagas::stage(staging_.writes(), std::move(save), bytes);
}

bool Unit::holds(std::string_view table, const nlohmann::json& key) const {
  const std::string id = item_id(table, key);
  const auto& actions = staging_.writes().list<Action>();
  return std::any_of(actions.begin(), actions.end(),
                     [&](const Action& action) { return action.item == id; });
}

Unit& joined_unit(HandlerTransaction& transaction, const Client& client,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse) {
  auto* dynamodb_tx = dynamic_cast<Transaction*>(&transaction);
  if (dynamodb_tx == nullptr) {
    throw refuse("it is another provider's transaction, and DynamoDB stores work only in the " +
                 std::string(Transaction::kTypeName) +
                 " of a unit of work from a DynamoDB inbox or outbox store");
  }
  Unit& unit = TransactionAccess::unit_of(*dynamodb_tx);
  const StoreUrl& theirs = unit.client().url();
  const StoreUrl& mine = client.url();
  if (theirs.endpoint != mine.endpoint || theirs.region != mine.region ||
      theirs.table_prefix != mine.table_prefix) {
    throw refuse("the transaction's unit of work is on " + theirs.text + " and this store on " +
                 mine.text +
                 ": writes commit atomically only with a unit opened on the same URL (server, "
                 "region and table_prefix); open the inbox (or outbox) store and this store on "
                 "one URL");
  }
  return unit;
}

}  // namespace docket::dynamodb::detail
