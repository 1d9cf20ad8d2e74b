// The inbox store: where the dispatcher records (tenant, consumer id, message id) in the
// same transaction as the handlers' writes, and what an application asks of it (is a
// message recorded, which of these are not, purge old rows, the consumer checkpoints).
// What only a provider implements, the unit of work the dispatcher drives, is
// docket/spi/inbox_unit.h.
//
// Invariants every provider keeps (tests/conformance checks them):
//  - a dedup row exists exactly when its unit of work committed;
//  - filter_unprocessed and is_recorded are pure reads of committed rows;
//  - transaction_type() is the same for the store's whole life.
//
// Thread-safety: an InboxStore may be used from many threads at once; a UnitOfWork
// belongs to the thread that began it.
#ifndef DOCKET_INBOX_INBOX_STORE_H_
#define DOCKET_INBOX_INBOX_STORE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/store_capabilities.h"
#include "docket/core/tenant.h"
#include "docket/core/transaction_type.h"
#include "docket/core/unit_of_work.h"
#include "docket/inbox/checkpoint_store.h"

namespace docket {

namespace spi {
class InboxUnit;         // docket/spi/inbox_unit.h
class InboxStoreAccess;  // docket/spi/inbox_unit.h
}  // namespace spi

// The dedup key: only these three take part in deduplication.
struct DedupKey {
  std::string tenant;
  std::string consumer_id;
  std::string message_id;

  friend bool operator==(const DedupKey&, const DedupKey&) = default;
};

// One dedup row as written. processed_at is stamped by the store from its clock.
struct InboxRecord {
  DedupKey key;
  std::string event_type;
  Timestamp occurred_at{};
  std::optional<std::string> source;
  std::optional<std::string> causation_id;
  std::optional<std::string> correlation_id;
};

class InboxStore {
 public:
  virtual ~InboxStore() = default;

  // The provider's name: "memory", "sqlite", ...
  virtual std::string_view provider_name() const noexcept = 0;

  // What this store can do; see docket/core/store_capabilities.h.
  virtual StoreCapabilities capabilities() const noexcept = 0;
  // The type of the transaction its units of work give handlers
  // (TransactionType::of<docket::sqlite::Transaction>(), ...): what a dispatcher compares
  // with its handlers' type at construction.
  virtual TransactionType transaction_type() const noexcept = 0;

  // Creates or upgrades the schema. Idempotent; also done on first use.
  virtual void migrate() = 0;

  // Opens a unit of work whose handler_transaction() is the provider's native wrapper,
  // for writes of the caller's own that must commit together (for SQLite: BEGIN
  // IMMEDIATE on a pooled connection). It records no message: dispatch through an
  // InboxDispatcher for that.
  std::unique_ptr<UnitOfWork> begin();

  // Whether the key's row is committed, read in a fresh transaction.
  virtual bool is_recorded(const DedupKey& key) = 0;

  // The ids in `message_ids` that `consumer_id` has not processed under the ambient
  // tenant, in input order: one anti-join read. Throws InvalidInputError for a bad
  // consumer id or message id (naming its position).
  std::vector<std::string> filter_unprocessed(std::string_view consumer_id,
                                              std::span<const std::string> message_ids);

  // Deletes dedup rows (every tenant and consumer) processed before `cutoff`, at most
  // `batch_size` rows per short transaction, and returns how many were deleted. Keep
  // rows at least as long as the transport may redeliver.
  std::uint64_t purge_processed_before(Timestamp cutoff, std::size_t batch_size = 1000);

  // Deletes every dedup row of `consumer_id` (of `tenant` only, or of every tenant when
  // nullopt), whenever processed, at most `batch_size` rows per short transaction, and
  // returns how many it deleted; `progress(total so far)` after each batch when set. A
  // message whose row is gone is dispatched to that consumer as new: this is how a
  // projection is rebuilt (`docket projections rebuild`), never a retention tool. The
  // read is the store's own (the primary key's range on SQLite and PostgreSQL when
  // `tenant` is given, the table otherwise; a filtered Scan of the table on DynamoDB,
  // which has no index by consumer; a query on Firestore). Throws InvalidInputError for
  // an invalid consumer id or a batch size of 0, before anything is deleted.
  std::uint64_t purge_consumer(std::string_view consumer_id, const std::optional<TenantId>& tenant,
                               std::size_t batch_size = 1000,
                               const std::function<void(std::uint64_t)>& progress = {});

  // The consumer checkpoints kept in the same database.
  virtual CheckpointStore& checkpoints() noexcept = 0;

 protected:
  InboxStore() = default;

  // The provider's side (docket/spi/inbox_unit.h): opens the unit of work a dispatcher
  // records through; begin() and spi::InboxStoreAccess::begin() call it.
  virtual std::unique_ptr<spi::InboxUnit> begin_unit() = 0;

  virtual std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) = 0;
  // Deletes at most `limit` rows processed before `cutoff` in one transaction and
  // returns how many it deleted.
  virtual std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) = 0;
  // Deletes at most `limit` rows of `consumer_id` (of `*tenant`, every tenant's when
  // null) in one transaction and returns how many it deleted. Every provider overrides
  // it; the default (for a store that wraps another) refuses with ConfigurationError.
  virtual std::size_t do_purge_consumer_batch(const std::string* tenant,
                                              std::string_view consumer_id, std::size_t limit);

 private:
  friend class spi::InboxStoreAccess;
};

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_STORE_H_
