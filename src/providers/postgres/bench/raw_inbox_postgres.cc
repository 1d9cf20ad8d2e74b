#include "raw_inbox_postgres.h"

#include <array>
#include <cstdint>

#include "raw_pg_params.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// Verbatim the dedup insert of PostgresUnitOfWork::try_record.
constexpr std::string_view kRecordSql =
    "INSERT INTO docket_inbox_messages (tenant, consumer_id, message_id, event_type, "
    "occurred_at, processed_at, message_source, causation_id, correlation_id) "
    "VALUES ($1, $2, $3, $4, 'epoch'::timestamptz + $5 * interval '1 microsecond', "
    "'epoch'::timestamptz + $6 * interval '1 microsecond', $7, $8, $9) "
    "ON CONFLICT (tenant, consumer_id, message_id) DO NOTHING";
constexpr std::array<Oid, 9> kRecordTypes{kPgText, kPgText, kPgText, kPgText, kPgInt8,
                                          kPgInt8, kPgText, kPgText, kPgText};
constexpr std::array<Oid, 3> kEffectTypes{kPgText, kPgText, kPgText};

// Statement names; docket's unit of work begins with its default isolation.
constexpr const char* kBegin = "raw_begin";
constexpr const char* kCommit = "raw_commit";
constexpr const char* kRollback = "raw_rollback";
constexpr const char* kSavepoint = "raw_savepoint";
constexpr const char* kRelease = "raw_release";
constexpr const char* kRecord = "raw_record";
constexpr const char* kEffect = "raw_effect";

}  // namespace

RawInboxPostgres::RawInboxPostgres(const std::string& url, std::string_view consumer_id)
    : consumer_id_(consumer_id), db_(url) {
  db_.prepare(kBegin, "BEGIN ISOLATION LEVEL READ COMMITTED", {});
  db_.prepare(kCommit, "COMMIT", {});
  db_.prepare(kRollback, "ROLLBACK", {});
  db_.prepare(kSavepoint, "SAVEPOINT docket_message", {});
  db_.prepare(kRelease, "RELEASE SAVEPOINT docket_message", {});
  db_.prepare(kRecord, std::string(kRecordSql), kRecordTypes);
  db_.prepare(kEffect, std::string(kPostgresEffectInsertSql), kEffectTypes);
}

bool RawInboxPostgres::record(const BenchDelivery& delivery) {
  const PgInt8 occurred_at(delivery.occurred_at_micros);
  const PgInt8 processed_at(now_micros());
  const std::array params{pg_text(kBenchTenant),
                          pg_text(consumer_id_),
                          pg_text(delivery.message_id),
                          pg_text(kBenchEventType),
                          occurred_at.param(),
                          processed_at.param(),
                          RawPgParam{},
                          RawPgParam{},
                          RawPgParam{}};
  return db_.run(kRecord, params) == 1;
}

void RawInboxPostgres::insert_effect(const BenchDelivery& delivery) {
  const std::array params{pg_text(consumer_id_), pg_text(delivery.message_id),
                          pg_text(kBenchPayload)};
  db_.run(kEffect, params);
}

void RawInboxPostgres::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  db_.run(kBegin);
  try {
    if (!record(delivery)) {
      db_.run(kRollback);
      ++counts.skipped_duplicates;
      return;
    }
    insert_effect(delivery);
    db_.run(kCommit);
    ++counts.processed;
  } catch (...) {
    db_.rollback_and_rethrow();
  }
}

void RawInboxPostgres::deliver_batch(std::span<const BenchDelivery> deliveries,
                                     DispatchCounts& counts) {
  DispatchCounts batch;
  db_.run(kBegin);
  try {
    for (const BenchDelivery& delivery : deliveries) {
      db_.run(kSavepoint);
      if (record(delivery)) {
        insert_effect(delivery);
        ++batch.processed;
      } else {
        ++batch.skipped_duplicates;
      }
      db_.run(kRelease);
    }
    db_.run(kCommit);
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  counts += batch;
}

}  // namespace docket::bench
