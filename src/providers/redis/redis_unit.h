// The Redis unit of work: the dedup records a dispatcher stages, the writes its
// handlers queue (docket::redis::Transaction), and what docket's stores stage through
// that Transaction (outbox messages, events, saga saves), held in memory (kit::WriteSet,
// whose savepoints are marks) and committed as ONE run of the commit script
// (redis_commit_script.cc). A producer's unit (OutboxStore::begin) and the event and
// saga stores' own writes are units of this kind too.
//
// Why a script and not WATCH/MULTI/EXEC: the commit must branch on the dedup record's
// existence (a duplicate writes nothing) and on each insert's key. MULTI/EXEC cannot
// branch; it needs WATCH on every key read, a read round trip before MULTI, and a retry
// loop when another client touched one. The script checks and writes in one round trip
// and Redis runs it without interleaving any other command, so a concurrent duplicate
// delivery finds the record either absent (and its script, run whole before or after
// this one, finds it present) or present: exactly one commits.
//
// The script checks everything before it writes anything (Redis does not roll back a
// script that fails midway): the processed index a sorted set (or absent), every dedup
// key absent (and distinct; a key of another type there is refused, never read as a
// duplicate), every insert's key
// absent, every key of the type its command needs as the writes before it leave it.
// Then it runs the queued writes in order and writes each dedup record (a hash) and its
// entry in the processed index (a sorted set scored by processed_at), which the purge
// reads. Replies: {0} committed; {1, i} dedup record i exists (DuplicateDeliveryError);
// {2, c} insert c's key exists (UniqueViolationError); {3, c, type} write c's key holds
// another type (InvalidInputError); {4, i, type} dedup key i holds another type, {5, 0,
// type} the index does (InfrastructureError naming the key and the prefix); {6, o}
// outbox message o's key exists (UniqueViolationError: its id was staged before), {7,
// o, type, key} a key of the outbox's, the event store's or the saga store's holds
// another type (InfrastructureError naming it). Nothing is written in any but the
// first.
//
// Outbox messages (staged by OutboxStore::insert through the unit's Transaction): each
// takes the next sequence from the outbox's counter (INCR) as the script writes it, so
// sequences are assigned in commit order and a visible sequence never has an invisible
// predecessor; it goes into the feed, into its ordering key's set, and into the due set
// when no earlier message of its key holds it (redis_outbox_store.h).
//
// Events (the event store's appends, redis_event_store.h): each must find its stream's
// list as long as its version (as the unit's earlier events leave it), or the script
// refuses the commit, {8, e, current version} (ConcurrencyConflictError: another
// append got there first); then it takes the next global position (INCR), goes into
// its stream's list, the feed and its tenant's feed, and the reply gives each event's
// version and position: {0, version, position, ...}. Positions are drawn in commit
// order, so the feed never has an event in flight below a visible one.
//
// Sagas (the saga store's saves, redis_saga_store.h): the latest save of each saga the
// unit saved, where the saga's version is still the one the unit first read (none:
// kNewSaga), or the script refuses the commit, {9, s, actual version}
// (SagaConflictError: another save got there first); then the hash is replaced whole
// and the saga is in the key index (and the completed index, by completed_at, once
// completed).
//
// A commit whose connection fails midway is not sent again (it may have run): the
// ConnectionLostError reaches the dispatcher, the transport redelivers, and the dedup
// record decides.
//
// Thread-safety: belongs to the thread running the unit of work.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_UNIT_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_UNIT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
#include "providers/kit/unit_sagas.h"
#include "providers/kit/unit_streams.h"
#include "providers/kit/write_set.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_script.h"
#include "providers/redis/redis_transaction_access.h"

namespace docket::redis::detail {

// What every unit of one store shares: its pool, its commit script, its index key.
struct UnitContext {
  Pool& pool;
  Script& commit_script;
  std::string index_key;  // the processed index (a sorted set)
  const Clock& clock;
};

struct DedupWrite {
  std::string key;                  // the record's key, prefix included
  std::string member;               // its member in the processed index
  std::vector<std::string> fields;  // field, value, field, value, ...
  long long processed_at = 0;       // Unix microseconds: the index's score
};

struct QueuedWrite {
  QueuedOp op;
  std::string key;
  std::vector<std::string> args;
};

// An outbox message staged by the producer (or a handler), numbered and written by the
// commit script: its hash's key, its id (its member in the outbox's sets), the key of
// its ordering-key set ("" for none), when it is due (Unix microseconds) and its
// fields (redis_outbox_row.h), the sequence left out.
struct OutboxWrite {
  std::string key;
  std::string id;
  std::string order_key;
  long long next_attempt_at = 0;
  std::vector<std::string> fields;  // field, value, field, value, ...
};

// An event staged by an append (the event store's own, or one inside a handler's
// unit): its stream's list, its tenant's feed, the version it must take (nullopt: the
// next, whatever it is: an any-version append of the store's own), what the unit's
// stream view knows of it (kit/unit_streams.h; set inside a handler's unit) and its
// fields (redis_event_fields.h), the version and position left to the script.
struct EventWrite {
  std::string stream_key;
  std::string tenant_feed;
  std::optional<std::int64_t> version;
  std::optional<kit::StagedEvent> event;
  std::vector<std::string> fields;
};

// Where the commit script put each staged event, in staging order.
struct PlacedEvent {
  std::int64_t version = 0;
  std::int64_t position = 0;
};

// Where a saga's save goes: its hash's key and its member in the saga indexes.
struct SagaTarget {
  std::string key;
  std::string member;
};
// The sagas a unit read and saved (kit/unit_sagas.h); the base of a save's condition
// is the version the unit first read (kNewSaga: none).
using UnitSagas = kit::UnitSagas<std::int64_t, SagaTarget>;

// The commit script's source (redis_unit.cc).
std::string_view commit_script_source() noexcept;

class Unit final : public TransactionAccess {
 public:
  explicit Unit(const UnitContext& context);

  Transaction& transaction() noexcept { return transaction_; }

  // Stages the record of `record` (processed now, by the context's clock).
  void stage_dedup(std::string key, std::string member, const InboxRecord& record);
  // Whether a dedup record with `key` is staged (and not rolled back).
  bool holds(std::string_view key) const noexcept;

  // Stages an outbox message; throws UniqueViolationError when this unit staged one
  // with its key already (a message that committed earlier is refused by the commit
  // script).
  void stage_outbox(OutboxWrite write);

  // Stages an event (see EventWrite). A version the stream does not reach when the
  // script runs refuses the whole commit (ConcurrencyConflictError, see below).
  void stage_event(EventWrite write);
  // The event streams the unit appended to (kit/unit_streams.h), viewed over
  // staged_events().
  kit::UnitStreams& streams() noexcept { return streams_; }
  const std::vector<EventWrite>& staged_events() const noexcept {
    return writes_.list<EventWrite>();
  }
  // The sagas the unit read and saved; stage a save with stage_saga.
  UnitSagas& sagas() noexcept { return sagas_; }
  const std::vector<UnitSagas::Save>& staged_sagas() const noexcept {
    return writes_.list<UnitSagas::Save>();
  }
  // Stages `save`; commit writes each saga's latest save, where the saga is still at the
  // version the unit first read (see below).
  void stage_saga(UnitSagas::Save save);

  // After commit(): where each staged event went, in staging order.
  const std::vector<PlacedEvent>& placed_events() const noexcept { return placed_; }

  // Where the unit commits: the server, database and prefix of its store's URL.
  const RedisUrl& url() const noexcept { return context_.pool.url(); }
  // Whether commit() was called: nothing staged afterwards would be written.
  bool ended() const noexcept { return committed_; }

  void queue(QueuedOp op, std::string_view key, std::string_view field,
             std::string_view value) override;

  void begin_savepoint() { writes_.begin_savepoint(); }
  void release_savepoint() { writes_.release_savepoint(); }
  void rollback_savepoint() { writes_.rollback_savepoint(); }

  // Runs the commit script once (nothing to do when nothing is staged); throws as the
  // header says. Commits once: a second call throws InfrastructureError.
  void commit();

 private:
  const UnitContext& context_;
  Transaction transaction_;
  kit::WriteSet<DedupWrite, QueuedWrite, OutboxWrite, EventWrite, UnitSagas::Save> writes_;
  kit::UnitStreams streams_;
  UnitSagas sagas_;
  std::vector<PlacedEvent> placed_;
  bool committed_ = false;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_UNIT_H_
