// What `docket bench inbox` delivers and what its handler writes, shared by docket's
// side and the raw baseline so that both issue the very same statements with the very
// same values.
//
// Every message is one small order event; the handler inserts one effect row keyed by
// (consumer id, message id), with the event body, through the unit of work's
// transaction. A plain INSERT: the inbox's dedup is what keeps it from running twice,
// and a second effect row would fail the primary key.
//
// Thread-safety: constants and plain values.
#ifndef DOCKET_BENCH_INBOX_WORKLOAD_H_
#define DOCKET_BENCH_INBOX_WORKLOAD_H_

#include <cstdint>
#include <string_view>

#include "docket/tenant.h"

namespace docket::bench {

inline constexpr std::string_view kBenchEventType = "bench.order-placed";
inline constexpr std::string_view kBenchPayload = R"({"order":"A-1001","qty":3})";
// The dedup rows of a benchmark are untenanted: the ambient tenant docket records then.
inline constexpr std::string_view kBenchTenant = kUntenantedSentinel;

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

// The same on PostgreSQL ($n parameters, no WITHOUT ROWID).
inline constexpr std::string_view kPostgresEffectTableSql =
    "CREATE TABLE IF NOT EXISTS docket_bench_effects (consumer_id TEXT NOT NULL, "
    "message_id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (consumer_id, message_id))";
inline constexpr std::string_view kPostgresEffectInsertSql =
    "INSERT INTO docket_bench_effects (consumer_id, message_id, body) VALUES ($1, $2, $3)";
inline constexpr std::string_view kPostgresCountEffectsSql =
    "SELECT count(*) FROM docket_bench_effects WHERE consumer_id = $1";
inline constexpr std::string_view kPostgresCountDedupRowsSql =
    "SELECT count(*) FROM docket_inbox_messages WHERE consumer_id = $1";

// One delivery as both sides see it.
struct BenchDelivery {
  std::string_view message_id;
  std::int64_t occurred_at_micros = 0;
};

// What one side's dispatch calls returned.
struct DispatchCounts {
  std::uint64_t processed = 0;
  std::uint64_t skipped_duplicates = 0;

  DispatchCounts& operator+=(const DispatchCounts& other) noexcept {
    processed += other.processed;
    skipped_duplicates += other.skipped_duplicates;
    return *this;
  }
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_INBOX_WORKLOAD_H_
