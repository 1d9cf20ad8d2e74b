// The outbox store SPI: what a provider implements so that a producer stages messages
// in its own transaction and relays and pull consumers read them back.
//
// Invariants every provider keeps (tests/conformance/outbox_* check them):
//  - a row exists exactly when the producer's transaction that inserted it committed;
//  - `sequence` is assigned at insert (DynamoDB, Firestore: when the inserting unit
//    commits, one draw for all its rows), strictly increasing, never reused (also
//    after retention deleted the highest rows). It may become visible out of order
//    where transactions commit concurrently (PostgreSQL, memory, and the commits of
//    the document stores): readers of the feed must not assume that a visible sequence
//    has no invisible predecessor;
//  - `id` is unique;
//  - claim() is atomic: while a row's lease lasts no other claim returns it (SQLite:
//    one claimer at a time under the write lock; PostgreSQL: FOR UPDATE SKIP LOCKED);
//  - order per key: claim() never returns a row with an ordering key while a row of
//    the same tenant and key with a lower sequence is pending (due, in backoff or
//    leased) or parked; so at most one row per (tenant, ordering key) is leased at a
//    time. A row without an ordering key is never held back. docs/outbox.md says how
//    each provider holds and releases a key;
//  - complete() and fail() change a row only while the caller's claim token still
//    holds its lease, so a relay whose lease ran out cannot overwrite a newer claim;
//  - purge_done_batch() deletes at most `limit` rows in one short transaction;
//  - every unit of work's handler_transaction() is exactly of transaction_type(), and
//    insert() accepts that type only.
//
// Thread-safety: an OutboxStore may be used from many threads at once.
#ifndef DOCKET_OUTBOX_OUTBOX_STORE_H_
#define DOCKET_OUTBOX_OUTBOX_STORE_H_

#include <cstddef>
#include <cstdint>
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
#include "docket/core/unit_of_work.h"
#include "docket/core/wake_signal.h"
#include "docket/outbox/outbox_message.h"
#include "docket/outbox/outbox_stats.h"

namespace docket {

// The outcome of a failed publish attempt, as the relay records it.
struct FailedAttempt {
  std::string error;            // what the transport reported
  bool park = false;            // true: max attempts reached, park the row
  Timestamp next_attempt_at{};  // when not parked: not claimed before this
};

class OutboxStore {
 public:
  virtual ~OutboxStore() = default;

  // The provider's name: "memory", "sqlite", ...
  virtual std::string_view provider_name() const noexcept = 0;

  // What this store can do; see docket/core/store_capabilities.h.
  virtual StoreCapabilities capabilities() const noexcept = 0;
  // The type of the transaction its units of work give producers, and the only one
  // insert() (Outbox::stage) accepts: a producer or a component staging from handlers
  // (SagaCoordinator) compares it once, at start-up.
  virtual TransactionType transaction_type() const noexcept = 0;

  // Creates or upgrades the schema. Idempotent; also done on first use.
  virtual void migrate() = 0;

  // Opens a producer's unit of work on the outbox's database: its
  // handler_transaction() is the provider's native wrapper (docket::sqlite::Transaction,
  // docket::memory::Transaction) through which the producer writes its own rows and
  // stages messages; commit() commits both, destruction without commit rolls both back.
  virtual std::unique_ptr<UnitOfWork> begin() = 0;

  // Inserts `record` (its sequence is assigned here, or at the unit's commit where the
  // store draws it then; status pending, no attempts)
  // through `tx`, inside tx's open transaction. Throws ConfigurationError when `tx` is
  // another provider's wrapper or belongs to another database, and InvalidInputError
  // when no transaction is open on it. Called by Outbox::stage(), which validates.
  virtual void insert(HandlerTransaction& tx, const OutboxRecord& record) = 0;

  // Leases to `token` until `lease_until` at most `limit` pending rows that are due
  // (next_attempt_at <= now), not leased (or whose lease ended by `now`) and not held
  // by an earlier row of their ordering key (above), lowest sequence first, and returns
  // them in sequence order.
  virtual std::vector<OutboxRecord> claim(std::string_view token, Timestamp now,
                                          Timestamp lease_until, std::size_t limit) = 0;

  // Marks the row done at `now` and ends its lease, if `token` still holds it; returns
  // whether it did.
  virtual bool complete(std::string_view id, std::string_view token, Timestamp now) = 0;

  // complete() for each of `ids`, in one request where the store can (one statement on
  // PostgreSQL; the default calls complete() for each); returns how many it marked.
  virtual std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                                   Timestamp now);

  // Records one more failed attempt with its error, ends the lease, and either
  // schedules the next attempt or parks the row; only if `token` still holds the
  // lease. Returns whether it did.
  virtual bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) = 0;

  // Parked rows with sequence > after_sequence, in sequence order, at most `limit`.
  virtual std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) = 0;

  // Rows of `status` with sequence > after_sequence, in sequence order, at most `limit`;
  // empty only when there are no more (an operator's listing: `docket outbox list`).
  // SQLite and PostgreSQL read them by status; the default reads the feed a page at a
  // time and keeps the matches (memory, DynamoDB, Firestore: its cost grows with the
  // rows it passes), and parked() for kParked.
  virtual std::vector<OutboxRecord> list(OutboxStatus status, std::int64_t after_sequence,
                                         std::size_t limit);

  // Makes a parked row pending again, attempts reset, due at `now`. Returns false when
  // no parked row has that id.
  virtual bool replay(std::string_view id, Timestamp now) = 0;

  // Makes a parked row skipped (done at `now` without being published), releasing its
  // ordering key. Returns false when no parked row has that id.
  virtual bool skip(std::string_view id, Timestamp now) = 0;

  // Makes a pending row that no relay has claimed since it was staged or since its last
  // attempt was recorded (no lease token, whatever the time: a relay past its lease may
  // still be publishing it) cancelled: done at `now`, never published, releasing its
  // ordering key. Returns false, changing nothing, otherwise (no such row, another
  // status, claimed).
  virtual bool cancel(std::string_view id, Timestamp now) = 0;

  // Deletes at most `limit` parked rows whose last attempt became due before `cutoff`
  // (next_attempt_at < cutoff: parking leaves it as it was), in one transaction;
  // returns how many. A deleted parked message releases its ordering key, as a skipped
  // one does, but leaves no row behind (Outbox::skip keeps one).
  virtual std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) = 0;

  // Deletes at most `limit` done rows whose done_at < cutoff, in one transaction;
  // returns how many.
  virtual std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) = 0;

  // Committed rows (any status) with sequence > after_sequence, ascending, at most
  // `limit`: the outbox read as a feed, on a store whose capabilities().feed is
  // FeedKind::kGlobalPositions. Its late-commit contract: a row shows when it commits,
  // so a lower sequence may appear after a higher one (a gap until then); the reader
  // holds its checkpoint at a gap (PullConsumer), this call does not wait for it.
  virtual std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) = 0;

  // The committed row with this id, or nullopt.
  virtual std::optional<OutboxRecord> find(std::string_view id) = 0;

  // Every committed row counted by status and destination, the pending ones classified
  // at `now` (docket/outbox/outbox_stats.h). SQLite and PostgreSQL count in one grouped
  // query; the default reads the whole outbox through read_feed(), a page at a time
  // (memory, DynamoDB, Firestore): its cost grows with the outbox, retention included.
  virtual OutboxStats stats(Timestamp now);

  // The wake signal notified after a commit that staged messages on this store's
  // database, shared by every store of this process on that database; relays and pull
  // consumers wait on it between polls (docket/core/wake_signal.h). Memory and SQLite
  // hear the commits of this process (SQLite: not another process's on the same file);
  // PostgreSQL hears every process's, through a NOTIFY the staging transaction sends
  // and a listening connection this store opens on the first call (docs/outbox.md).
  // nullptr (the default) where the store hears none: its relays poll alone.
  virtual std::shared_ptr<WakeSignal> staged_signal() { return nullptr; }

 protected:
  OutboxStore() = default;
};

}  // namespace docket

#endif  // DOCKET_OUTBOX_OUTBOX_STORE_H_
