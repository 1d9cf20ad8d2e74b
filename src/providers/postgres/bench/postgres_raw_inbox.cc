#include "postgres_raw_inbox.h"

#include <array>
#include <cstdint>

#include "postgres_raw_pg_params.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// The dedup columns of PostgresUnitOfWork::try_record; the constant ones are the
// statement's first parameters: $1 tenant, $2 consumer id, $3 event type, $4
// occurred_at, $5 the effect body, $6 processed_at; then each message's id.
constexpr int kSharedParams = 6;

std::string insert_sql(std::size_t messages) {
  std::string sql =
      "WITH recorded AS (INSERT INTO docket_inbox_messages (tenant, consumer_id, message_id, "
      "event_type, occurred_at, processed_at, message_source, causation_id, correlation_id) "
      "VALUES ";
  for (std::size_t i = 0; i < messages; ++i) {
    sql += (i == 0 ? "($1, $2, $" : ", ($1, $2, $") + std::to_string(kSharedParams + 1 + i) +
           ", $3, 'epoch'::timestamptz + $4 * interval '1 microsecond', "
           "'epoch'::timestamptz + $6 * interval '1 microsecond', NULL, NULL, NULL)";
  }
  sql +=
      " ON CONFLICT (tenant, consumer_id, message_id) DO NOTHING RETURNING message_id) "
      "INSERT INTO docket_bench_effects (consumer_id, message_id, body) "
      "SELECT $2, message_id, $5 FROM recorded";
  return sql;
}

constexpr std::string_view kProbeTableSql =
    "CREATE TABLE IF NOT EXISTS docket_bench_commit_probe (id TEXT PRIMARY KEY)";
constexpr const char* kProbe = "raw_commit_probe";

}  // namespace

RawInboxPostgres::RawInboxPostgres(const std::string& url, std::string_view consumer_id)
    : consumer_id_(consumer_id), db_(url) {}

const char* RawInboxPostgres::statement(std::size_t messages) {
  if (messages >= names_.size()) {
    names_.resize(messages + 1);
  }
  std::string& name = names_[messages];
  if (name.empty()) {
    std::vector<Oid> types{kPgText, kPgText, kPgText, kPgInt8, kPgText, kPgInt8};
    types.resize(types.size() + messages, kPgText);
    name = "raw_inbox_" + std::to_string(messages);
    db_.prepare(name, insert_sql(messages), types);
  }
  return name.c_str();
}

void RawInboxPostgres::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  deliver_batch(std::span<const BenchDelivery>(&delivery, 1), counts);
}

void RawInboxPostgres::deliver_batch(std::span<const BenchDelivery> deliveries,
                                     DispatchCounts& counts) {
  const char* name = statement(deliveries.size());
  const PgInt8 occurred_at(deliveries.front().occurred_at_micros);
  const PgInt8 processed_at(now_micros());
  params_.clear();
  params_.push_back(pg_text(kBenchTenant));
  params_.push_back(pg_text(consumer_id_));
  params_.push_back(pg_text(kBenchEventType));
  params_.push_back(occurred_at.param());
  params_.push_back(pg_text(kBenchPayload));
  params_.push_back(processed_at.param());
  for (const BenchDelivery& delivery : deliveries) {
    params_.push_back(pg_text(delivery.message_id));
  }
  const auto processed = static_cast<std::size_t>(db_.run(name, params_));
  counts.processed += processed;
  counts.skipped_duplicates += deliveries.size() - processed;
}

CommitProbePostgres::CommitProbePostgres(const std::string& url) : db_(url) {
  db_.exec_ddl(std::string(kProbeTableSql));
  db_.prepare(kProbe, "INSERT INTO docket_bench_commit_probe (id) VALUES ($1)",
              std::array<Oid, 1>{kPgText});
}

void CommitProbePostgres::commit_one(std::string_view id) {
  const std::array params{pg_text(id)};
  db_.run(kProbe, params);
}

}  // namespace docket::bench
