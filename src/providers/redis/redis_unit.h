// The Redis unit of work: the dedup records a dispatcher stages and the writes its
// handlers queue (docket::redis::Transaction), held in memory (kit::WriteSet, whose
// savepoints are marks) and committed as ONE run of the commit script.
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
// type} the index does (InfrastructureError naming the key and the prefix). Nothing is
// written in any but the first.
//
// A commit whose connection fails midway is not sent again (it may have run): the
// ConnectionLostError reaches the dispatcher, the transport redelivers, and the dedup
// record decides.
//
// Thread-safety: belongs to the thread running the unit of work.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_UNIT_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_UNIT_H_

#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
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
  kit::WriteSet<DedupWrite, QueuedWrite> writes_;
  bool committed_ = false;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_UNIT_H_
