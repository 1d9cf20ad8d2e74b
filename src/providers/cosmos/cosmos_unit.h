// One Cosmos DB unit of work: the operations of one transactional batch (the inbox's dedup
// items, the handlers' or producer's writes and the outbox's messages), staged in a
// kit::UnitStaging with savepoint marks, checked as they are staged (ids, items, item
// size, one write per item, at most 100 operations and 2 MB a batch, one partition) and
// sent at commit as ONE transactional batch on the inbox's container, which the service
// applies wholly or not at all.
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
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "docket/cosmos/transaction.h"
#include "providers/cosmos/cosmos_batch.h"
#include "providers/cosmos/cosmos_client.h"
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

// How commit reads a failed operation.
enum class Role : std::uint8_t {
  kDedup,   // the inbox's record that the message was processed (a create)
  kCreate,  // a handler's create
  kWrite,   // a handler's upsert, replace or delete
};

// An item whose body takes a sequence drawn at commit: the counter it is drawn from, and
// how the number goes into the body.
struct SequencedItem {
  SequenceCounter counter;
  void (*number)(nlohmann::json& item, std::int64_t sequence) = nullptr;
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
  // from `sequenced.counter` at commit (above). Throws as create().
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

  // Sends the staged operations as one transactional batch (nothing when none). Throws as
  // the header comment says, or InfrastructureError when the unit already ended.
  void commit();

 private:
  // Checks and stages one operation on item `id` (its body `item` for a write).
  void stage(std::string_view type, std::string_view id, std::optional<nlohmann::json> item,
             const std::optional<std::string>& etag, Role role,
             std::optional<SequencedItem> sequenced = std::nullopt);
  // The batch's operations, the sequenced items numbered (one draw per counter).
  nlohmann::json numbered_operations();
  // The partition a write staged now goes to, pinning it when the unit is empty.
  const std::string& pin(const std::string& wanted, bool refuse_other);
  // Throws what the header comment says for the operation that failed the batch.
  [[noreturn]] void throw_failed(const BatchFailure& failure) const;

  const UnitContext& context_;
  kit::UnitStaging<StagedOperation> staging_;
  std::optional<std::string> partition_;
  Transaction tx_;
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_UNIT_H_
