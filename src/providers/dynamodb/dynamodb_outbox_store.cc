// The DynamoDB OutboxStore (dynamodb_outbox_store.h).
#include "providers/dynamodb/dynamodb_outbox_store.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/dynamodb/transaction.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_key_schemas.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_outbox_claim.h"
#include "providers/dynamodb/dynamodb_outbox_reads.h"
#include "providers/dynamodb/dynamodb_outbox_releases.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/dynamodb/dynamodb_table_once.h"
#include "providers/dynamodb/dynamodb_unit.h"
#include "providers/kit/producer_unit_of_work.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

using kit::to_micros;

class DynamoDbOutboxStore final : public OutboxStore {
 public:
  explicit DynamoDbOutboxStore(std::string_view url)
      : client_(parse_store_url(url)),
        schemas_(client_),
        table_(outbox::outbox_table_schema(client_.url())),
        store_("DynamoDB outbox (table '" + table_.name() + "' at " + client_.url().text + ")"),
        context_{client_, schemas_, store_},
        releases_(client_, table_.name(), store_) {}

  std::string_view provider_name() const noexcept override { return "dynamodb"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::buffered_commit_capabilities(kUnitLimits, FeedKind::kGlobalPositions);
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<dynamodb::Transaction>();
  }
  void migrate() override { table_.ensure(client_); }
  std::unique_ptr<UnitOfWork> begin() override {
    table_.ensure(client_);
    return std::make_unique<kit::ProducerUnitOfWork<detail::Unit>>(context_);
  }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    detail::Unit& unit = joined_unit(tx);
    table_.ensure(client_);
    // The sequence is drawn when the unit commits (dynamodb_unit.h), so a unit held open
    // does not hold a number below those of the units that commit meanwhile.
    OutboxRecord staged = record;
    staged.sequence = outbox::kUnnumbered;
    unit.put(table_.name(), outbox::message_item(table_.schema(), staged), std::nullopt,
             detail::Role::kInsert,
             detail::SequencedItem{.counter = outbox::sequence_counter(table_.name()),
                                   .number = &outbox::number_item,
                                   .hold = outbox::hold_of(table_.name(), record)});
  }

  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    table_.ensure(client_);
    return outbox::claim(client_, table_.name(), store_,
                         {.token = token, .now = now, .until = lease_until}, limit,
                         [this](const OutboxRecord& record) { releases_.remember(record); });
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    const std::string ids[] = {std::string(id)};
    return complete_all(ids, token, now) == 1;
  }

  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    return count_applied(releasing(distinct_message_ids(ids), [&](const std::string& id) {
      return outbox::complete_action(table_.name(), id, token, now);
    }));
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    if (!Uuid::parse(id)) {
      return false;
    }
    releases_.forget(id);  // its next lease, by whichever relay, remembers it anew
    return count_applied(std::vector<nlohmann::json>{
               outbox::fail_action(table_.name(), id, token, attempt)}) == 1;
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    return lowest_after(outbox::kParkedIndex, outbox::kParkedShard, after_sequence, limit);
  }

  bool replay(std::string_view id, Timestamp now) override {
    if (!Uuid::parse(id)) {
      return false;
    }
    return count_applied(
               std::vector<nlohmann::json>{outbox::replay_action(table_.name(), id, now)}) == 1;
  }

  bool skip(std::string_view id, Timestamp now) override {
    return change_releasing(id, [&](const std::string& message) {
      return outbox::skip_action(table_.name(), message, now);
    });
  }

  bool cancel(std::string_view id, Timestamp now) override {
    return change_releasing(id, [&](const std::string& message) {
      return outbox::cancel_action(table_.name(), message, now);
    });
  }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    table_.ensure(client_);
    const std::vector<nlohmann::json> parked = outbox::query_shards(
        client_, table_.name(),
        {.index = outbox::kParkedIndex,
         .shard_attribute = outbox::kParkedShard,
         .order_condition = "#sequence > :none",  // every one
         .filter = "#next_attempt_at < :cutoff",
         .values = {{":none", number_value(0)}, {":cutoff", number_value(to_micros(cutoff))}},
         .per_shard = limit});
    std::vector<outbox::Releasing> changes;
    for (const nlohmann::json& item : parked) {
      if (changes.size() == limit) {
        break;
      }
      changes.push_back(outbox::releasing_of(
          item,
          outbox::purge_parked_action(table_.name(), ItemReader(item, store_).string(outbox::kId),
                                      cutoff),
          store_));
    }
    return count_applied(changes);
  }

  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    table_.ensure(client_);
    const std::vector<nlohmann::json> done =
        outbox::query_shards(client_, table_.name(),
                             {.index = outbox::kDoneIndex,
                              .shard_attribute = outbox::kDoneShard,
                              .order_condition = "#done_at < :cutoff",
                              .values = {{":cutoff", number_value(to_micros(cutoff))}},
                              .per_shard = limit});
    std::vector<nlohmann::json> actions;
    std::set<std::string> keys;  // the key items of the keyed messages purged
    for (const nlohmann::json& item : done) {
      if (actions.size() == limit) {
        break;
      }
      actions.push_back(outbox::purge_action(table_.name(),
                                             ItemReader(item, store_).string(outbox::kId), cutoff));
      if (const std::optional<nlohmann::json> key =
              outbox::releasing_of(item, {}, store_).key_item) {
        keys.insert(key->at(outbox::kId).at("S").get<std::string>());
      }
    }
    const std::size_t purged = count_applied(actions);
    forget_empty_keys(keys);
    return purged;
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    return lowest_after(outbox::kFeedIndex, outbox::kFeedShard, after_sequence, limit);
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    if (!Uuid::parse(id)) {
      return std::nullopt;  // no message has it (the counter item's id is no UUID)
    }
    table_.ensure(client_);
    const std::optional<nlohmann::json> item =
        consistent_get(client_, table_.name(), outbox::message_key(id));
    if (!item) {
      return std::nullopt;
    }
    return outbox::record_of(*item, store_);
  }

 private:
  // The unit under `tx`, when it is a DynamoDB transaction of this store's URL.
  detail::Unit& joined_unit(HandlerTransaction& tx) const {
    detail::Unit& unit = detail::joined_unit(tx, client_, [&](const std::string& reason) {
      return ConfigurationError(store_ + ": cannot stage through a " + std::string(tx.type_name()) +
                                ": " + reason);
    });
    if (unit.ended()) {
      throw InvalidInputError(store_ +
                              ": the unit of work has committed already, so the message would "
                              "commit alone; stage it before commit(), or in a new unit of work");
    }
    return unit;
  }

  // The first `limit` messages of the index `index` (sharded by `shard_attribute`, in
  // sequence order) after `after_sequence`, lowest first.
  std::vector<OutboxRecord> lowest_after(std::string_view index, std::string_view shard_attribute,
                                         std::int64_t after_sequence, std::size_t limit) {
    table_.ensure(client_);
    return outbox::lowest_sequences(
        outbox::query_shards(client_, table_.name(),
                             {.index = index,
                              .shard_attribute = shard_attribute,
                              .order_condition = "#sequence > :after",
                              .values = {{":after", number_value(after_sequence)}},
                              .per_shard = limit}),
        limit, store_);
  }

  // `action` of each of `ids` that names a message, with its key's release.
  std::vector<outbox::Releasing> releasing(
      const std::vector<std::string>& ids,
      const std::function<nlohmann::json(const std::string&)>& action) {
    table_.ensure(client_);
    return releases_.of(ids, action);
  }

  // Applies `action` to the message `id` with its key's release; whether it applied (a
  // message that does not exist, or whose condition fails, is not changed).
  bool change_releasing(std::string_view id,
                        const std::function<nlohmann::json(const std::string&)>& action) {
    if (!Uuid::parse(id)) {
      return false;
    }
    return count_applied(releasing({std::string(id)}, action)) == 1;
  }

  // Deletes each key item of `key_ids` that holds no sequence (outbox table's key
  // item): where a unit adds to it first, the condition keeps it; where after, the
  // unit's Update makes it anew. Losing its last_held loses nothing, as no message of
  // the key is held.
  void forget_empty_keys(const std::set<std::string>& key_ids) const {
    for (const std::string& id : key_ids) {
      client_.call({.operation = "DeleteItem", .table = table_.name(), .replay = Replay::kSafe},
                   {{"TableName", table_.name()},
                    {"Key", outbox::message_key(id)},
                    {"ConditionExpression", "attribute_not_exists(#held)"},
                    {"ExpressionAttributeNames", {{"#held", std::string(outbox::kHeld)}}}});
    }
  }

  // The ids that can name a message (UUIDs), each once.
  static std::vector<std::string> distinct_message_ids(std::span<const std::string> ids) {
    std::set<std::string> seen;
    std::vector<std::string> result;
    for (const std::string& id : ids) {
      if (Uuid::parse(id) && seen.insert(id).second) {
        result.push_back(id);
      }
    }
    return result;
  }

  std::size_t count_applied(const std::vector<nlohmann::json>& actions) {
    table_.ensure(client_);
    const std::vector<bool> applied =
        apply_where_conditions_hold(client_, table_.name(), store_, actions);
    return static_cast<std::size_t>(std::count(applied.begin(), applied.end(), true));
  }

  std::size_t count_applied(const std::vector<outbox::Releasing>& changes) {
    if (changes.empty()) {
      return 0;
    }
    table_.ensure(client_);
    const std::vector<bool> applied =
        outbox::apply_releasing(client_, table_.name(), store_, changes);
    return static_cast<std::size_t>(std::count(applied.begin(), applied.end(), true));
  }

  Client client_;
  KeySchemas schemas_;
  TableOnce table_;
  std::string store_;  // for errors
  detail::UnitContext context_;
  // The releases of the messages this store leased and has not completed, failed or
  // otherwise changed since.
  outbox::LeasedReleases releases_;
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock&) {
  return std::make_unique<DynamoDbOutboxStore>(url);
}

}  // namespace docket::dynamodb::detail
