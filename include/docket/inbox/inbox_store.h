// The inbox store SPI: what a provider implements so that the dispatcher can record
// (tenant, consumer id, message id) in the same transaction as the handlers' writes.
//
// Invariants every provider keeps (tests/conformance checks them):
//  - a dedup row exists exactly when its unit of work committed;
//  - (tenant, consumer_id, message_id) is unique: a second insert fails, either at
//    try_record (returns false when the row is visible) or with UniqueViolationError
//    from a statement or from commit(), never by silently writing twice;
//  - a UnitOfWork destroyed without commit() rolls back everything in it;
//  - filter_unprocessed and is_recorded are pure reads of committed rows;
//  - every unit of work's handler_transaction() is exactly of transaction_type(), the
//    same for the store's whole life.
//
// Thread-safety: an InboxStore may be used from many threads at once; a UnitOfWork
// belongs to the thread that began it.
#ifndef DOCKET_INBOX_INBOX_STORE_H_
#define DOCKET_INBOX_INBOX_STORE_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/store_capabilities.h"
#include "docket/core/transaction_type.h"
#include "docket/inbox/checkpoint_store.h"

namespace docket {

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

// A message of a segmented batch (UnitOfWork::defer_segments) whose segment failed when
// it was sent, after its handlers had returned.
struct SegmentFailure {
  std::size_t segment = 0;  // the segment's number: 0 for the unit's first savepoint, ...
  // Its dedup write found the key recorded (a concurrent delivery committed it, or an
  // earlier message of the batch holds it): a duplicate, not a failure.
  bool duplicate = false;
  std::exception_ptr error;  // what failed, when not a duplicate
};

// One open transaction on a store.
class UnitOfWork {
 public:
  virtual ~UnitOfWork() = default;

  // Records `record` as processed unless its key is already recorded (committed, or
  // earlier in this unit of work): true when newly recorded, false for a duplicate.
  // May throw UniqueViolationError when a concurrent unit of work holds the key.
  virtual bool try_record(const InboxRecord& record) = 0;

  // Writes `record` without waiting to learn whether its key is new (DedupCheck::
  // kAtCommit): the write travels with the unit of work's next statement or its commit,
  // which then throw UniqueViolationError when the key is recorded (in a segmented batch,
  // see defer_segments: the segment's failure, a duplicate). Returns false, having
  // written nothing, where the store cannot hold the write back; the default.
  virtual bool record_at_commit(const InboxRecord& /*record*/) { return false; }

  // Whether the key's row is visible to this unit of work: committed by anyone, or
  // recorded earlier in this unit (and not rolled back).
  virtual bool is_recorded(const DedupKey& key) = 0;

  // What handlers write through. Valid until the unit of work ends.
  virtual HandlerTransaction& handler_transaction() noexcept = 0;

  // One savepoint at a time: begin, then either release (keep its writes) or roll
  // back to it (discard its writes and end it).
  virtual void begin_savepoint() = 0;
  virtual void release_savepoint() = 0;
  virtual void rollback_savepoint() = 0;

  // Sends now the writes the unit of work holds back to send with its next statement or
  // its commit (on PostgreSQL: a handler's Transaction::send, an outbox message staged),
  // and throws their failure: a batch on a unit that does not defer segments calls it
  // after each message's handlers, before releasing its savepoint, so that a failure
  // fails that message alone. The default holds nothing back.
  virtual void flush_deferred_writes() {}

  // Segmented batches, for a store whose statements travel in flights (PostgreSQL's
  // pipeline): each savepoint begun opens a segment, numbered from 0, and a segment's
  // statements (SAVEPOINT, the dedup write of record_at_commit, the handlers' writes,
  // RELEASE) are held back and sent with later segments and the commit in as few round
  // trips as the handlers' reads allow. When a statement of a closed segment fails in a
  // flight, the store rolls that segment back alone, sends again what the server skipped
  // after it (so no handler runs twice) and reports the failure through
  // take_segment_failures(); with `stop_at_failure` it sends nothing after the failed
  // segment instead (kStop: the later segments' writes are discarded), and a statement
  // that needed a result after it throws. A failure of the open segment (the one whose
  // handlers run) is thrown as before. Returns false, changing nothing, where the store
  // sends each statement as it comes; the default.
  virtual bool defer_segments(bool /*stop_at_failure*/) { return false; }

  // Which of `message_ids` are recorded for (tenant, consumer_id), as is_recorded would
  // answer for each, in input order: a segmented batch's pre-check, one read where the
  // store can. The default asks is_recorded for each.
  virtual std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                           std::span<const std::string> message_ids);

  // The segment failures found since the last call, in the order found.
  virtual std::vector<SegmentFailure> take_segment_failures() { return {}; }

  // Commits once. Throws UniqueViolationError when a constraint fails at commit.
  virtual void commit() = 0;

 protected:
  UnitOfWork() = default;
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

  // Opens a unit of work (for SQLite: BEGIN IMMEDIATE on a pooled connection).
  virtual std::unique_ptr<UnitOfWork> begin() = 0;

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

  // The consumer checkpoints kept in the same database.
  virtual CheckpointStore& checkpoints() noexcept = 0;

 protected:
  InboxStore() = default;

  virtual std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) = 0;
  // Deletes at most `limit` rows processed before `cutoff` in one transaction and
  // returns how many it deleted.
  virtual std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) = 0;
};

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_STORE_H_
