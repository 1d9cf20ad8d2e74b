// The provider's side of the inbox store SPI: the unit of work a dispatcher records
// through (docket::spi::InboxUnit), and how docket's own dispatchers open one
// (InboxStoreAccess). An application never needs this header: it dispatches through
// docket/inbox/inbox_dispatcher.h and opens a unit with InboxStore::begin().
//
// Invariants every provider keeps (tests/conformance checks them), beside UnitOfWork's:
//  - a dedup row exists exactly when its unit of work committed;
//  - (tenant, consumer_id, message_id) is unique: a second insert fails, either at
//    try_record (returns false when the row is visible) or with UniqueViolationError
//    from a statement or from commit(), never by silently writing twice;
//  - every unit's handler_transaction() is exactly of the store's transaction_type().
//
// Thread-safety: a unit of work belongs to the thread that began it.
#ifndef DOCKET_SPI_INBOX_UNIT_H_
#define DOCKET_SPI_INBOX_UNIT_H_

#include <cstddef>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/unit_of_work.h"
#include "docket/inbox/inbox_store.h"

namespace docket::spi {

// A message of a segmented batch (InboxUnit::defer_segments) whose segment failed when
// it was sent, after its handlers had returned.
struct SegmentFailure {
  std::size_t segment = 0;  // the segment's number: 0 for the unit's first savepoint, ...
  // Its dedup write found the key recorded (a concurrent delivery committed it, or an
  // earlier message of the batch holds it): a duplicate, not a failure.
  bool duplicate = false;
  std::exception_ptr error;  // what failed, when not a duplicate
};

// One open transaction on an inbox store, as the dispatcher drives it.
class InboxUnit : public UnitOfWork {
 public:
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

  // One savepoint at a time: begin, then either release (keep its writes) or roll
  // back to it (discard its writes and end it).
  virtual void begin_savepoint() = 0;
  virtual void release_savepoint() = 0;
  virtual void rollback_savepoint() = 0;

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
  // sends each statement as it comes; the default. A batch on a unit that does not defer
  // segments calls flush_deferred_writes() after each message's handlers, before
  // releasing its savepoint, so that a failure fails that message alone.
  virtual bool defer_segments(bool /*stop_at_failure*/) { return false; }

  // Which of `message_ids` are recorded for (tenant, consumer_id), as is_recorded would
  // answer for each, in input order: a segmented batch's pre-check, one read where the
  // store can. The default asks is_recorded for each.
  virtual std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                           std::span<const std::string> message_ids);

  // The segment failures found since the last call, in the order found.
  virtual std::vector<SegmentFailure> take_segment_failures() { return {}; }

 protected:
  InboxUnit() = default;
};

// What docket's dispatchers, and the conformance suites, reach of an InboxStore beyond
// the calls an application makes.
class InboxStoreAccess {
 public:
  // Opens the unit of work the dispatcher records through (for SQLite: BEGIN IMMEDIATE
  // on a pooled connection).
  static std::unique_ptr<InboxUnit> begin(InboxStore& store);
};

}  // namespace docket::spi

#endif  // DOCKET_SPI_INBOX_UNIT_H_
