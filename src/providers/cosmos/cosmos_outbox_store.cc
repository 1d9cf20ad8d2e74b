// The Cosmos DB OutboxStore (cosmos_outbox_store.h).
#include "providers/cosmos/cosmos_outbox_store.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/cosmos/transaction.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/cosmos/cosmos_outbox_claim.h"
#include "providers/cosmos/cosmos_outbox_item.h"
#include "providers/cosmos/cosmos_outbox_key_item.h"
#include "providers/cosmos/cosmos_outbox_leases.h"
#include "providers/cosmos/cosmos_outbox_messages.h"
#include "providers/cosmos/cosmos_partition_range_cache.h"
#include "providers/cosmos/cosmos_transaction_access.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/producer_unit_of_work.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

// complete_all looks up this many ids per query.
constexpr std::size_t kIdsPerLookup = 100;

nlohmann::json outbox_parameter(std::string_view name, nlohmann::json value) {
  return {{"name", name}, {"value", std::move(value)}};
}

class CosmosOutboxStore final : public OutboxStore {
 public:
  explicit CosmosOutboxStore(std::string_view url)
      : client_(parse_store_url(url)),
        container_(client_.url().container(kInboxContainerBase)),
        store_("Cosmos DB outbox (container '" + container_ + "' at " + client_.url().printable +
               ")"),
        context_{client_, container_, store_},
        place_{client_, container_, store_} {}

  std::string_view provider_name() const noexcept override { return "cosmos"; }
  StoreCapabilities capabilities() const noexcept override {
    // A message goes in the producer's transactional batch, so its limits bound one unit.
    return kit::buffered_commit_capabilities({.max_writes = kMaxBatchOperations,
                                              .max_bytes = kMaxBatchBytes,
                                              .max_record_bytes = kMaxItemBytes},
                                             FeedKind::kGlobalPositions);
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<cosmos::Transaction>();
  }
  void migrate() override {
    client_.ensure_container(container_, kInboxPartitionKeyPath);
    client_.ensure_container(outbox::sequence_counter(client_.url().prefix).container, "/id");
  }
  std::unique_ptr<UnitOfWork> begin() override {
    migrate();
    return std::make_unique<kit::ProducerUnitOfWork<Unit>>(context_);
  }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    Unit& unit = joined_unit(tx);
    migrate();
    // The sequence is drawn when the unit commits (cosmos_unit.h), so a unit held open
    // does not hold a number below those of the units that commit meanwhile.
    kit::OutboxRow row{.record = record};
    row.record.status = OutboxStatus::kPending;
    // A keyed message writes its key's key item in the same batch, so that per key the
    // units commit in sequence order (cosmos_outbox_key_item.h).
    unit.create_sequenced(
        record.id, outbox::outbox_item(row),
        SequencedItem{.counter = outbox::sequence_counter(client_.url().prefix),
                      .number = &outbox::number_item,
                      .key_item = record.ordering_key
                                      ? outbox::key_item_id(record.tenant, *record.ordering_key)
                                      : std::string()});
  }

  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    migrate();
    return outbox::claim_messages(place_, leases_, claim_ranges_, token, now, lease_until, limit);
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    const std::string ids[] = {std::string(id)};
    return complete_all(ids, token, now) == 1;
  }

  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    migrate();
    std::vector<std::string> wanted;
    std::set<std::string> distinct;
    for (const std::string& id : ids) {
      if (Uuid::parse(id) && distinct.insert(id).second) {
        wanted.push_back(id);
      }
    }
    // The leases this store wrote: one batch a partition, under each lease's etag.
    std::vector<std::string> unresolved;
    std::set<outbox::KeyOfMessage> released;  // the keys of the messages completed
    std::vector<outbox::FoundMessage> marked =
        leases_.complete_each(place_, wanted, token, now, unresolved);
    std::size_t completed = marked.size();
    for (const outbox::FoundMessage& message : marked) {
      if (std::optional<outbox::KeyOfMessage> key = key_of(message)) {
        released.insert(std::move(*key));
      }
    }
    // The rest (another store object's leases, or refused): read, and marked only where
    // the token still holds them.
    for (std::size_t first = 0; first < unresolved.size(); first += kIdsPerLookup) {
      nlohmann::json chunk = nlohmann::json::array();
      for (std::size_t i = first; i < std::min(unresolved.size(), first + kIdsPerLookup); ++i) {
        chunk.push_back(unresolved[i]);
      }
      const std::size_t count = chunk.size();
      for (outbox::FoundMessage& message :
           outbox::query_messages(place_, "ARRAY_CONTAINS(@ids, c.id)",
                                  {outbox_parameter("@ids", std::move(chunk))}, "", count)) {
        std::optional<outbox::KeyOfMessage> key = key_of(message);
        if (outbox::change_message(place_, std::move(message), [&](kit::OutboxRow& row) {
              if (!kit::held_by(row, token)) {
                return false;
              }
              kit::complete(row, now);
              return true;
            })) {
          ++completed;
          if (key) {
            released.insert(std::move(*key));
          }
        }
      }
    }
    forget_unheld_keys(released);
    return completed;
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    leases_.forget(id, token);  // the failure's write changes the etag the lease left
    return change(id, [&](kit::OutboxRow& row) {
      if (!kit::held_by(row, token)) {
        return false;
      }
      kit::fail(row, attempt);
      return true;
    });
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    migrate();
    return records(outbox::query_messages(place_, "c.parkedSequence > @after",
                                          {outbox_parameter("@after", after_sequence)},
                                          "c.parkedSequence", limit));
  }

  bool replay(std::string_view id, Timestamp now) override {
    return change(id, [&](kit::OutboxRow& row) { return kit::replay(row, now); });
  }

  bool skip(std::string_view id, Timestamp now) override {
    return change_releasing(id, [&](kit::OutboxRow& row) { return kit::skip(row, now); });
  }

  bool cancel(std::string_view id, Timestamp now) override {
    return change_releasing(id, [&](kit::OutboxRow& row) { return kit::cancel(row, now); });
  }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    migrate();
    return delete_unchanged(
        outbox::query_messages(place_, "c.parkedSequence > 0 AND c.nextAttemptAt < @cutoff",
                               {outbox_parameter("@cutoff", kit::to_micros(cutoff))}, "", limit));
  }

  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    migrate();
    return delete_unchanged(outbox::query_messages(
        place_, "c.status = @done AND c.doneAt < @cutoff",
        {outbox_parameter("@done", kit::outbox_status_code(OutboxStatus::kDone)),
         outbox_parameter("@cutoff", kit::to_micros(cutoff))},
        "", limit));
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    migrate();
    return records(outbox::query_messages(place_, "c.sequence > @after",
                                          {outbox_parameter("@after", after_sequence)},
                                          "c.sequence", limit));
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    migrate();
    std::optional<outbox::FoundMessage> found = outbox::find_message(place_, id);
    if (!found) {
      return std::nullopt;
    }
    return std::move(found->row.record);
  }

 private:
  // The unit under `tx`, when it is a Cosmos DB transaction of a unit on this store's
  // container, and still open.
  Unit& joined_unit(HandlerTransaction& tx) const {
    const std::string refused =
        store_ + ": cannot stage through a " + std::string(tx.type_name()) + ": ";
    auto* cosmos_tx = dynamic_cast<cosmos::Transaction*>(&tx);
    if (cosmos_tx == nullptr) {
      throw ConfigurationError(refused + "it is another provider's transaction, and Cosmos DB " +
                               "stores work only in the " +
                               std::string(cosmos::Transaction::kTypeName) +
                               " of a unit of work from a Cosmos DB inbox or outbox store");
    }
    Unit& unit = TransactionAccess::unit_of(*cosmos_tx);
    const StoreUrl& theirs = unit.client().url();
    const StoreUrl& mine = client_.url();
    if (theirs.endpoint != mine.endpoint || theirs.database != mine.database ||
        unit.container() != container_) {
      throw ConfigurationError(
          refused + "the transaction's unit of work writes container '" + unit.container() +
          "' at " + theirs.printable + ", and this store's messages go in container '" +
          container_ + "' at " + mine.printable +
          ": a message commits with other writes only in one transactional batch of one "
          "container; open the inbox (or outbox) store and this store on one URL");
    }
    if (unit.ended()) {
      throw InvalidInputError(store_ +
                              ": the unit of work has committed already, so the message would "
                              "commit alone; stage it before commit(), or in a new unit of work");
    }
    return unit;
  }

  bool change(std::string_view id, const std::function<bool(kit::OutboxRow&)>& changer) {
    migrate();
    std::optional<outbox::FoundMessage> found = outbox::find_message(place_, id);
    return found && outbox::change_message(place_, std::move(*found), changer);
  }

  // change(), and where it applied to a keyed message (no longer pending or parked), the
  // removal of its key item if no message of the key holds it now.
  bool change_releasing(std::string_view id, const std::function<bool(kit::OutboxRow&)>& changer) {
    migrate();
    std::optional<outbox::FoundMessage> found = outbox::find_message(place_, id);
    if (!found) {
      return false;
    }
    std::optional<outbox::KeyOfMessage> key = key_of(*found);
    if (!outbox::change_message(place_, std::move(*found), changer)) {
      return false;
    }
    if (key) {
      forget_unheld_keys({std::move(*key)});
    }
    return true;
  }

  // Where the key item of a keyed message is.
  static std::optional<outbox::KeyOfMessage> key_of(const outbox::FoundMessage& message) {
    const OutboxRecord& record = message.row.record;
    if (!record.ordering_key) {
      return std::nullopt;
    }
    return outbox::KeyOfMessage{message.partition, record.tenant, *record.ordering_key};
  }

  void forget_unheld_keys(const std::set<outbox::KeyOfMessage>& keys) const noexcept {
    outbox::forget_unheld(client_, container_, store_, keys);
  }

  static std::vector<OutboxRecord> records(std::vector<outbox::FoundMessage> found) {
    std::vector<OutboxRecord> result;
    result.reserve(found.size());
    for (outbox::FoundMessage& message : found) {
      result.push_back(std::move(message.row.record));
    }
    return result;
  }

  // Deletes each of `found` unless it changed since read, and then the key items of the
  // keyed ones that no message holds any more; how many messages it deleted.
  std::size_t delete_unchanged(const std::vector<outbox::FoundMessage>& found) const {
    std::size_t deleted = 0;
    std::set<outbox::KeyOfMessage> released;
    for (const outbox::FoundMessage& message : found) {
      if (delete_item(client_,
                      {.container = container_,
                       .id = message.row.record.id,
                       .partition_key = message.partition},
                      message.etag)) {
        ++deleted;
        if (std::optional<outbox::KeyOfMessage> key = key_of(message)) {
          released.insert(std::move(*key));
        }
      }
    }
    forget_unheld_keys(released);
    return deleted;
  }

  Client client_;
  std::string container_;
  std::string store_;  // for errors
  UnitContext context_;
  outbox::MessagePlace place_;
  outbox::OutboxLeases leases_;
  PartitionRangeCache claim_ranges_;  // the claim's ranges, kept a moment
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock&) {
  return std::make_unique<CosmosOutboxStore>(url);
}

}  // namespace docket::cosmos::detail
