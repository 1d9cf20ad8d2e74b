// The DynamoDB OutboxStore (dynamodb_outbox_store.h).
#include "providers/dynamodb/dynamodb_outbox_store.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/dynamodb/transaction.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/dynamodb/dynamodb_key_schemas.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_outbox_reads.h"
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

// How many times claim reads the pending index again when other relays leased every
// candidate it read.
constexpr int kClaimRounds = 3;

// How many pages of the pending index one claim round reads past messages it may not
// lease (in backoff, leased, or held by their key) before it settles for fewer.
constexpr int kClaimPages = 8;

class DynamoDbOutboxStore final : public OutboxStore {
 public:
  explicit DynamoDbOutboxStore(std::string_view url)
      : client_(parse_store_url(url)),
        schemas_(client_),
        table_(outbox::outbox_table_schema(client_.url())),
        store_("DynamoDB outbox (table '" + table_.name() + "' at " + client_.url().text + ")"),
        context_{client_, schemas_, store_} {}

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
                                   .number = &outbox::number_item});
  }

  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    table_.ensure(client_);
    std::vector<OutboxRecord> claimed;
    std::set<std::string> held;  // ids leased by this call
    for (int round = 0; round < kClaimRounds && claimed.size() < limit; ++round) {
      std::vector<OutboxRecord> candidates;
      for (OutboxRecord& r : claimable(now, limit)) {
        if (!held.contains(r.id)) {
          candidates.push_back(std::move(r));
        }
      }
      if (candidates.empty()) {
        break;
      }
      // Lease the lowest first; where another relay took some, the next candidates.
      std::size_t next = 0;
      while (claimed.size() < limit && next < candidates.size()) {
        const std::size_t count = std::min(limit - claimed.size(), candidates.size() - next);
        std::vector<nlohmann::json> actions;
        for (std::size_t i = next; i < next + count; ++i) {
          actions.push_back(
              outbox::lease_action(table_.name(), candidates[i], token, now, lease_until));
        }
        const std::vector<bool> applied = apply(actions);
        for (std::size_t i = 0; i < count; ++i) {
          if (applied[i]) {
            held.insert(candidates[next + i].id);
            claimed.push_back(std::move(candidates[next + i]));
          }
        }
        next += count;
      }
    }
    std::sort(claimed.begin(), claimed.end(),
              [](const OutboxRecord& a, const OutboxRecord& b) { return a.sequence < b.sequence; });
    return claimed;
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    const std::string ids[] = {std::string(id)};
    return complete_all(ids, token, now) == 1;
  }

  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    std::vector<nlohmann::json> actions;
    for (const std::string& id : distinct_message_ids(ids)) {
      actions.push_back(outbox::complete_action(table_.name(), id, token, now));
    }
    return count_applied(actions);
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    if (!Uuid::parse(id)) {
      return false;
    }
    return count_applied(std::vector<nlohmann::json>{
               outbox::fail_action(table_.name(), id, token, attempt)}) == 1;
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    table_.ensure(client_);
    return outbox::lowest_sequences(
        outbox::query_shards(client_, table_.name(),
                             {.index = outbox::kParkedIndex,
                              .shard_attribute = outbox::kParkedShard,
                              .order_condition = "#sequence > :after",
                              .values = {{":after", number_value(after_sequence)}},
                              .per_shard = limit}),
        limit, store_);
  }

  bool replay(std::string_view id, Timestamp now) override {
    if (!Uuid::parse(id)) {
      return false;
    }
    return count_applied(
               std::vector<nlohmann::json>{outbox::replay_action(table_.name(), id, now)}) == 1;
  }

  bool skip(std::string_view id, Timestamp now) override {
    if (!Uuid::parse(id)) {
      return false;
    }
    return count_applied(
               std::vector<nlohmann::json>{outbox::skip_action(table_.name(), id, now)}) == 1;
  }

  bool cancel(std::string_view id, Timestamp now) override {
    if (!Uuid::parse(id)) {
      return false;
    }
    return count_applied(
               std::vector<nlohmann::json>{outbox::cancel_action(table_.name(), id, now)}) == 1;
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
    std::vector<nlohmann::json> actions;
    for (const nlohmann::json& item : parked) {
      if (actions.size() == limit) {
        break;
      }
      actions.push_back(outbox::purge_parked_action(
          table_.name(), ItemReader(item, store_).string(outbox::kId), cutoff));
    }
    return count_applied(actions);
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
    for (const nlohmann::json& item : done) {
      if (actions.size() == limit) {
        break;
      }
      actions.push_back(outbox::purge_action(table_.name(),
                                             ItemReader(item, store_).string(outbox::kId), cutoff));
    }
    return count_applied(actions);
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    table_.ensure(client_);
    return outbox::lowest_sequences(
        outbox::query_shards(client_, table_.name(),
                             {.index = outbox::kFeedIndex,
                              .shard_attribute = outbox::kFeedShard,
                              .order_condition = "#sequence > :after",
                              .values = {{":after", number_value(after_sequence)}},
                              .per_shard = limit}),
        limit, store_);
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    if (!Uuid::parse(id)) {
      return std::nullopt;  // no message has it (the counter item's id is no UUID)
    }
    table_.ensure(client_);
    const Response response = client_.call(
        {.operation = "GetItem", .table = table_.name(), .replay = Replay::kSafe},
        {{"TableName", table_.name()}, {"Key", outbox::message_key(id)}, {"ConsistentRead", true}});
    const auto item = response.body().find("Item");
    if (item == response.body().end()) {
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

  // The pending messages that may be leased at `now`, lowest sequence first: due, not
  // leased, and first of their (tenant, ordering key) with no earlier parked message.
  // Order per key: the pending index is read from the lowest sequence on, unfiltered,
  // as a prefix complete across the shards (up to the lowest last sequence of a shard
  // that had more), so the first message of a key met is its earliest pending one and
  // holds the later ones; the parked messages with a key are read once per call (the
  // parked index: as many items as are parked, never the table). Each lease's condition
  // is on the item itself; a message stops holding its key only by a committed complete
  // or skip.
  std::vector<OutboxRecord> claimable(Timestamp now, std::size_t limit) const {
    const std::map<std::pair<std::string, std::string>, std::int64_t> parked_heads = parked_keys();
    std::set<std::pair<std::string, std::string>> keys_met;
    std::vector<OutboxRecord> result;
    const std::size_t page = std::max<std::size_t>(limit, 32);
    std::int64_t after = 0;
    for (int read = 0; read < kClaimPages && result.size() < limit; ++read) {
      const std::vector<nlohmann::json> items =
          outbox::query_shards(client_, table_.name(),
                               {.index = outbox::kPendingIndex,
                                .shard_attribute = outbox::kPendingShard,
                                .order_condition = "#sequence > :after",
                                .values = {{":after", number_value(after)}},
                                .per_shard = page});
      // The highest sequence up to which every shard's items are all here.
      std::map<std::int64_t, std::pair<std::size_t, std::int64_t>> shards;  // count, last
      for (const nlohmann::json& item : items) {
        const ItemReader reader(item, store_);
        auto& [count, last] = shards[reader.number(outbox::kPendingShard)];
        ++count;
        last = std::max(last, reader.number(outbox::kSequence));
      }
      std::optional<std::int64_t> complete_to;
      for (const auto& [shard, seen] : shards) {
        if (seen.first >= page) {
          complete_to = std::min(complete_to.value_or(seen.second), seen.second);
        }
      }
      std::vector<std::pair<std::int64_t, const nlohmann::json*>> ordered;
      for (const nlohmann::json& item : items) {
        const std::int64_t sequence = ItemReader(item, store_).number(outbox::kSequence);
        if (!complete_to || sequence <= *complete_to) {
          ordered.emplace_back(sequence, &item);
        }
      }
      std::sort(ordered.begin(), ordered.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [sequence, item] : ordered) {
        if (result.size() == limit) {
          break;
        }
        OutboxRecord record = outbox::record_of(*item, store_);
        if (record.ordering_key) {
          const std::pair<std::string, std::string> key{record.tenant, *record.ordering_key};
          const auto parked = parked_heads.find(key);
          if (!keys_met.insert(key).second ||
              (parked != parked_heads.end() && parked->second < sequence)) {
            continue;
          }
        }
        const ItemReader reader(*item, store_);
        const auto lease_until = reader.optional_number("lease_until");
        if (record.next_attempt_at <= now && (!lease_until || *lease_until <= to_micros(now))) {
          result.push_back(std::move(record));
        }
      }
      if (!complete_to) {
        break;  // every pending message was read
      }
      after = *complete_to;
    }
    return result;
  }

  // The lowest parked sequence of each (tenant, ordering key) that has a parked message.
  std::map<std::pair<std::string, std::string>, std::int64_t> parked_keys() const {
    std::map<std::pair<std::string, std::string>, std::int64_t> heads;
    const std::vector<nlohmann::json> items =
        outbox::query_shards(client_, table_.name(),
                             {.index = outbox::kParkedIndex,
                              .shard_attribute = outbox::kParkedShard,
                              .order_condition = "#sequence > :after",
                              .filter = "attribute_exists(#ordering_key)",
                              .values = {{":after", number_value(0)}},
                              .per_shard = std::numeric_limits<std::size_t>::max() / 4});
    for (const nlohmann::json& item : items) {
      const OutboxRecord record = outbox::record_of(item, store_);
      const auto [it, inserted] =
          heads.emplace(std::pair{record.tenant, *record.ordering_key}, record.sequence);
      if (!inserted) {
        it->second = std::min(it->second, record.sequence);
      }
    }
    return heads;
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

  std::vector<bool> apply(const std::vector<nlohmann::json>& actions) {
    table_.ensure(client_);
    return apply_where_conditions_hold(client_, table_.name(), store_, actions);
  }

  std::size_t count_applied(const std::vector<nlohmann::json>& actions) {
    const std::vector<bool> applied = apply(actions);
    return static_cast<std::size_t>(std::count(applied.begin(), applied.end(), true));
  }

  Client client_;
  KeySchemas schemas_;
  TableOnce table_;
  std::string store_;  // for errors
  detail::UnitContext context_;
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock&) {
  return std::make_unique<DynamoDbOutboxStore>(url);
}

}  // namespace docket::dynamodb::detail
