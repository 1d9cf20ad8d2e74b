// One Cosmos DB unit of work: the operations of one transactional batch (the inbox's dedup
// items, the handlers' or producer's writes and the outbox's messages), staged in a
// kit::UnitStaging with savepoint marks, checked as they are staged (ids, items, item
// size, one write per item, at most 100 operations and 2 MB a batch, one partition) and
// sent at commit as ONE transactional batch on the inbox's container, which the service
// applies wholly or not at all. A unit whose batch would be one create alone (a
// producer's one unkeyed message) sends it as a point create instead: the same write, its
// failure mapped as the batch's (below), one request without the batch's framing.
//
// The partition: the tenant of the unit's first dedup item, or the ambient tenant for a
// handler write staged before any (a unit opened by InboxStore::begin()). A dedup item of
// another tenant is refused with CommitLimitError, staging nothing: dispatch_batch then
// commits what it staged and gives that message a unit of its own. Emptied by a rolled
// back savepoint, the unit takes its partition anew.
//
// Sequenced items (the outbox's messages): a create staged with a SequencedItem takes its
// sequence at commit, not when staged: commit draws the numbers of all of them in one
// patch of their counter just before the batch (cosmos_sequence_counter.h) and numbers
// them in staging order. A unit that rolls back, or commits nothing, draws nothing.
//
// Ordering keys: a sequenced item of an ordering key stages, with the first item of that
// key, one more operation (of the batch's 100), the write of the key's key item
// (cosmos_outbox_key_item.h). Commit reads each key item (one point read each, and a
// create where there is none) before the draw (so its numbers pass those of every unit of
// the key committed before the read); its batch replaces each under the etag read. The
// batch that fails on a key item (412 or 404: a unit of that key committed since the read,
// or the key item was removed) is read, drawn and sent again, at most kMaxCommitAttempts
// times, then InfrastructureError; so per key, commit order is sequence order, and the
// numbers of a failed attempt are gaps. A unit whose batch fails for good deletes the key
// items its reads created, where no unit wrote them since.
//
// A failed batch answers 207 with the failing operation's status (the others 424);
// commit throws for it, nothing of the unit written:
//   a dedup item that exists (409)        DuplicateDeliveryError
//   a created item that exists (409)      UniqueViolationError naming container and id
//   a replace or delete whose etag is stale (412) or whose item is gone (404)
//                                         ConditionFailedError naming the item
//   a malformed operation (400)           InvalidInputError
//
// Thread-safety: belongs to one thread.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_UNIT_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_UNIT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/cosmos/transaction.h"
#include "providers/cosmos/cosmos_batch.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_outbox_key_item.h"
#include "providers/cosmos/cosmos_sequence_counter.h"
#include "providers/cosmos/cosmos_transaction_access.h"
#include "providers/kit/unit_staging.h"

namespace docket::cosmos::detail {

// What one batch holds: the service's 100 operations, and 2 MB less room for the
// request's own framing.
inline constexpr std::size_t kMaxBatchOperations = 100;
inline constexpr std::size_t kMaxBatchBytes = 2 * 1024 * 1024 - 16 * 1024;

// The partition key path of the inbox container, and the property a unit sets on items.
inline constexpr std::string_view kInboxPartitionKeyPath = "/pk";
inline constexpr std::string_view kPartitionProperty = "pk";

// How many times commit reads, draws and sends when units of the same ordering keys
// commit in between (the header comment).
inline constexpr int kMaxCommitAttempts = 10;

// How commit reads a failed operation.
enum class Role : std::uint8_t {
  kDedup,    // the inbox's record that the message was processed (a create)
  kCreate,   // a handler's create
  kWrite,    // a handler's upsert, replace or delete
  kKeyItem,  // the write of an ordering key's key item, made at commit
};

// The points of commit() a test can act at (Unit::on_commit_step).
enum class CommitStep : std::uint8_t {
  kKeysRead,  // the key items were read, nothing drawn yet
  kDrawn,     // the sequences were drawn, the batch not sent yet
};

// An item whose body takes a sequence drawn at commit: the counter it is drawn from, and
// how the number goes into the body, and the id of the key item of its ordering key ("" for
// an item of none).
struct SequencedItem {
  SequenceCounter counter;
  void (*number)(nlohmann::json& item, std::int64_t sequence) = nullptr;
  std::string key_item{};
};

struct StagedOperation {
  nlohmann::json operation;  // as the batch carries it
  std::string id;
  Role role = Role::kWrite;
  std::string what;                          // "create of item 'o-1'", for errors
  std::optional<SequencedItem> sequenced{};  // a create numbered at commit
};

// What every unit of one store shares.
struct UnitContext {
  const Client& client;
  std::string container;
  std::string store;  // "Cosmos DB inbox (container '...' at ...)", for errors
};

class Unit : public TransactionAccess {
 public:
  explicit Unit(const UnitContext& context);

  // The handler's writes and reads (docket/cosmos/transaction.h).
  std::string partition() const;
  void create(std::string_view id, nlohmann::json item);
  void upsert(std::string_view id, nlohmann::json item);
  void replace(std::string_view id, nlohmann::json item, const std::optional<std::string>& etag);
  void remove(std::string_view id, const std::optional<std::string>& etag);
  std::optional<ItemRead> read(std::string_view id) const;

  // Stages the create of `item` under `id` in the unit's partition, its sequence drawn
  // from `sequenced.counter` at commit (above), and the write of `sequenced.key_item`
  // with the first item of that key. Throws as create(), staging neither when either
  // would pass the batch's limits.
  void create_sequenced(std::string_view id, nlohmann::json item, SequencedItem sequenced);

  // Stages docket's dedup item `item` under `id` in `tenant`'s partition, created where
  // its id is free. Throws CommitLimitError when the unit holds another partition.
  void stage_dedup(const std::string& tenant, std::string_view id, nlohmann::json item);

  // Whether an operation of this unit (not rolled back) touches item `id` of partition
  // `partition`.
  bool holds(std::string_view partition, std::string_view id) const;

  Transaction& transaction() noexcept { return tx_; }
  // Whether commit() was called: nothing can be staged any more.
  bool ended() const noexcept { return staging_.ended(); }
  const Client& client() const noexcept { return context_.client; }
  // The container its batch writes.
  const std::string& container() const noexcept { return context_.container; }

  void begin_savepoint() { staging_.begin_savepoint(); }
  void release_savepoint() { staging_.release_savepoint(); }
  void rollback_savepoint() { staging_.rollback_savepoint(); }

  // For tests: `hook` is called at each CommitStep of every attempt of commit(), so that a
  // test can commit another unit of work exactly there.
  void on_commit_step(std::function<void(CommitStep)> hook) { commit_hook_ = std::move(hook); }

  // Sends the staged operations as one transactional batch (nothing when none). Throws as
  // the header comment says, or InfrastructureError when the unit already ended.
  void commit();

 private:
  // Checks and stages one operation on item `id` (its body `item` for a write).
  void stage(std::string_view type, std::string_view id, std::optional<nlohmann::json> item,
             const std::optional<std::string>& etag, Role role,
             std::optional<SequencedItem> sequenced = std::nullopt);
  // Stages the write of key item `id` (made at commit).
  void stage_key_item(const std::string& id);
  // The batch's operations, the sequenced items numbered (one draw per counter) and the
  // key items written from `reads` (by staged index). Throws InfrastructureError when a
  // key item read holds a sequence at or past the unit's first for that key, drawn after
  // the read (the counter went back).
  nlohmann::json numbered_operations(const std::vector<std::optional<outbox::KeyItemRead>>& reads);
  // One point read of each staged key item (a create where there is none), by staged
  // index.
  std::vector<std::optional<outbox::KeyItemRead>> read_key_items() const;
  // Deletes the key items of `reads` that the read created and no unit wrote since: the
  // unit's batch failed, and they would stay without a message.
  void forget_created_key_items(const std::vector<std::optional<outbox::KeyItemRead>>& reads) const;
  void step(CommitStep at) const {
    if (commit_hook_) {
      commit_hook_(at);
    }
  }
  // The partition a write staged now goes to, pinning it when the unit is empty.
  const std::string& pin(const std::string& wanted, bool refuse_other);
  // Throws what the header comment says for the operation that failed the batch.
  [[noreturn]] void throw_failed(const BatchFailure& failure) const;

  const UnitContext& context_;
  kit::UnitStaging<StagedOperation> staging_;
  std::optional<std::string> partition_;
  Transaction tx_;
  std::function<void(CommitStep)> commit_hook_;
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_UNIT_H_
