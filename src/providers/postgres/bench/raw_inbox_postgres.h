// The raw limit of the inbox on PostgreSQL: what docket's dispatcher and PostgreSQL
// store do for a message, written directly against libpq.
//
// The dedup insert is the one docket's store issues (src/providers/postgres/
// unit_of_work.cc), verbatim, with its parameters bound as docket binds them, in the
// same transaction shape:
//   single message: BEGIN ISOLATION LEVEL READ COMMITTED; the dedup INSERT ... ON
//                   CONFLICT DO NOTHING; if it inserted, the effect INSERT and COMMIT,
//                   else ROLLBACK;
//   batch:          BEGIN ...; per message SAVEPOINT docket_message, the dedup INSERT,
//                   the effect INSERT if it inserted, RELEASE SAVEPOINT docket_message;
//                   COMMIT.
// processed_at is read from the system clock per message, as docket's store does.
// Every statement (BEGIN and COMMIT included) is prepared once per connection: the
// honest lower bound, which docket is held to.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_INBOX_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_INBOX_POSTGRES_H_

#include <span>
#include <string>
#include <string_view>

#include "inbox_session.h"
#include "raw_postgres.h"

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
  // Runs the dedup insert; true when it inserted the row.
  bool record(const BenchDelivery& delivery);
  void insert_effect(const BenchDelivery& delivery);

  std::string consumer_id_;
  RawPostgres db_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_INBOX_POSTGRES_H_
