// The raw limit of the inbox on PostgreSQL: the same work as docket's dispatcher and
// PostgreSQL store (a dedup row per distinct message, an effect row per new message,
// nothing for a duplicate, all or nothing per message), done the fastest way libpq
// allows: ONE statement per delivery or per batch, in autocommit. The dedup rows are
// inserted with ON CONFLICT DO NOTHING ... RETURNING, and the effect rows are inserted
// from what that returned, in a data-modifying WITH:
//   single message: one statement, one round trip, one commit;
//   batch:          one multi-row statement for the whole batch (a prepared statement
//                   per batch size), one round trip, one commit.
// The dedup rows are the ones docket's store writes (src/providers/postgres/
// unit_of_work.cc: same table, same columns, processed_at read from the system clock
// per batch); a statement is prepared once per connection and its parameters bound in
// binary, as docket binds them. What it leaves out is what a single statement cannot
// give: a handler's code between the dedup insert and the effect, and a savepoint that
// fails one message of a batch alone.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_INBOX_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_INBOX_POSTGRES_H_

#include <span>
#include <string>
#include <string_view>

#include "inbox_session.h"
#include "postgres_raw.h"

namespace docket::bench {

// The effect table of inbox_workload.h on PostgreSQL, and what the checks count.
inline constexpr std::string_view kPostgresEffectTableSql =
    "CREATE TABLE IF NOT EXISTS docket_bench_effects (consumer_id TEXT NOT NULL, "
    "message_id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (consumer_id, message_id))";
inline constexpr std::string_view kPostgresEffectInsertSql =
    "INSERT INTO docket_bench_effects (consumer_id, message_id, body) VALUES ($1, $2, $3)";
inline constexpr std::string_view kPostgresCountEffectsSql =
    "SELECT count(*) FROM docket_bench_effects WHERE consumer_id = $1";
inline constexpr std::string_view kPostgresCountDedupRowsSql =
    "SELECT count(*) FROM docket_inbox_messages WHERE consumer_id = $1";

class RawInboxPostgres final : public InboxSession {
 public:
  // `url`: a libpq URL whose search_path is the raw baseline's schema.
  RawInboxPostgres(const std::string& url, std::string_view consumer_id);

  void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

 private:
  // The statement for `messages` deliveries, prepared on first use.
  const char* statement(std::size_t messages);

  std::string consumer_id_;
  RawPostgres db_;
  std::vector<std::string> names_;  // indexed by messages per statement
  std::vector<RawPgParam> params_;
};

// The commit-latency limit of the cluster: one single-row INSERT per call, in
// autocommit (a round trip and a commit each), into a table of its own on the raw
// side. No inbox work does less per message and still commits it durably.
class CommitProbePostgres final : public CommitProbe {
 public:
  explicit CommitProbePostgres(const std::string& url);
  void commit_one(std::string_view id) override;

 private:
  RawPostgres db_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_INBOX_POSTGRES_H_
