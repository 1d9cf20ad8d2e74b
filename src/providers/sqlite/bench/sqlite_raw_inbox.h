// The raw limit of the inbox on SQLite: what docket's dispatcher and SQLite store do
// for a message, written directly against the C API.
//
// The statements are those docket's store issues (src/providers/sqlite/
// sqlite_unit_of_work.cc), verbatim, in the same transaction shape:
//   single message: BEGIN IMMEDIATE; the dedup INSERT ... ON CONFLICT DO NOTHING;
//                   if it inserted, the effect INSERT and COMMIT, else ROLLBACK;
//   batch:          BEGIN IMMEDIATE; per message SAVEPOINT docket_message, the dedup
//                   INSERT, the effect INSERT if it inserted, RELEASE docket_message;
//                   COMMIT.
// processed_at is read from the system clock per message, as docket's store does.
// Every statement (BEGIN and COMMIT included) is prepared once per connection: the
// honest lower bound, which docket is held to.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_SQLITE_BENCH_RAW_INBOX_SQLITE_H_
#define DOCKET_PROVIDERS_SQLITE_BENCH_RAW_INBOX_SQLITE_H_

#include <span>
#include <string>
#include <string_view>

#include "inbox_session.h"
#include "sqlite_raw.h"

namespace docket::bench {

// The effect table of inbox_workload.h on SQLite, and what the checks count.
inline constexpr std::string_view kEffectTableSql =
    "CREATE TABLE IF NOT EXISTS docket_bench_effects (consumer_id TEXT NOT NULL, "
    "message_id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (consumer_id, message_id)) "
    "WITHOUT ROWID";
inline constexpr std::string_view kEffectInsertSql =
    "INSERT INTO docket_bench_effects (consumer_id, message_id, body) VALUES (?1, ?2, ?3)";
inline constexpr std::string_view kCountEffectsSql =
    "SELECT count(*) FROM docket_bench_effects WHERE consumer_id = ?1";
inline constexpr std::string_view kCountDedupRowsSql =
    "SELECT count(*) FROM docket_inbox_messages WHERE consumer_id = ?1";

class RawInboxSqlite final : public InboxSession {
 public:
  RawInboxSqlite(const std::string& path, std::string_view consumer_id);

  void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

 private:
  // Binds and runs the dedup insert; true when it inserted the row.
  bool record(const BenchDelivery& delivery);
  void insert_effect(const BenchDelivery& delivery);

  std::string consumer_id_;
  RawSqlite db_;
  RawStatement begin_;
  RawStatement commit_;
  RawStatement rollback_;
  RawStatement savepoint_;
  RawStatement release_;
  RawStatement record_;
  RawStatement effect_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_SQLITE_BENCH_RAW_INBOX_SQLITE_H_
