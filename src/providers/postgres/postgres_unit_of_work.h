// The PostgreSQL unit of work: a READ COMMITTED transaction on a pooled connection,
// the dedup insert, one savepoint level for batches, COMMIT once; ROLLBACK when
// destroyed uncommitted.
//
// The dedup insert is INSERT ... ON CONFLICT DO NOTHING: when another transaction
// holds the same key uncommitted, PostgreSQL waits for it, then reports the row as a
// conflict (it committed: a duplicate) or inserts (it rolled back). So the answer is
// final and a unique violation a handler sees is the handler's own.
//
// Segmented batches (spi::InboxUnit::defer_segments): the unit tags what each savepoint's
// segment defers on the connection and recovers the connection's flights
// (FlightRecovery): when a statement of a closed segment fails, the flight goes again
// with ROLLBACK TO that segment's savepoint and what the server skipped after it. The
// segment's dedup insert is then a plain INSERT that needs no answer: its unique
// violation means the key is recorded (a duplicate); any other failure is the message's.
// Savepoints are released at the end of each segment, so the one ROLLBACK TO rolls back
// exactly the failed segment.
//
// Thread-safety: belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_POSTGRES_UNIT_OF_WORK_H_
#define DOCKET_PROVIDERS_POSTGRES_UNIT_OF_WORK_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "docket/inbox/inbox_store.h"
#include "docket/postgres/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_flight.h"
#include "providers/postgres/postgres_param.h"
#include "providers/postgres/postgres_transaction_access.h"
#include "providers/postgres/postgres_transaction_block.h"

namespace docket::postgres::detail {

class PostgresUnitOfWork final : public spi::InboxUnit, private FlightRecovery {
 public:
  explicit PostgresUnitOfWork(Database& database);
  PostgresUnitOfWork(const PostgresUnitOfWork&) = delete;
  PostgresUnitOfWork& operator=(const PostgresUnitOfWork&) = delete;
  ~PostgresUnitOfWork() override;

  bool try_record(const InboxRecord& record) override;
  bool record_at_commit(const InboxRecord& record) override;
  bool is_recorded(const DedupKey& key) override;
  HandlerTransaction& handler_transaction() noexcept override { return tx_.transaction(); }
  void begin_savepoint() override;
  void release_savepoint() override;
  void rollback_savepoint() override;
  void flush_deferred_writes() override;
  bool defer_segments(bool stop_at_failure) override;
  std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                   std::span<const std::string> message_ids) override;
  std::vector<spi::SegmentFailure> take_segment_failures() override;
  void commit() override;

 private:
  // Throws InfrastructureError when the transaction is no longer open: a handler ended
  // it through native(), or it was committed already.
  void require_open(std::string_view operation) const;
  // The dedup row's parameters, processed_at stamped now; they borrow `record`'s text.
  std::array<Param, 9> record_params(const InboxRecord& record) const;
  // FlightRecovery: a failure of a closed segment is that segment's alone.
  bool recover(Connection& conn, std::vector<DeferredStatement>& statements, std::size_t failed,
               const Result& failure) override;
  // Ends the open segment: its statements from now on are untagged.
  void close_segment();

  Database& database_;
  Pool::Lease lease_;  // destroyed last: the block rolls back on it first
  TransactionBlock block_;
  TransactionAccess::OnConnection tx_;
  // Segmented batches.
  bool segmented_ = false;
  bool stop_at_failure_ = false;
  std::size_t segments_ = 0;               // segments begun
  std::optional<std::size_t> open_;        // the segment whose handlers run
  std::optional<std::size_t> stopped_at_;  // stop_at_failure_: the failed segment
  std::vector<spi::SegmentFailure> failures_;
};

// SELECT whether the key's dedup row exists, on `conn` (in its transaction, if any).
bool dedup_row_exists(Connection& conn, const DedupKey& key);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_UNIT_OF_WORK_H_
