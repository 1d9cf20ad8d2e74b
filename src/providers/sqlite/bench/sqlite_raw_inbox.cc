#include "sqlite_raw_inbox.h"

#include <chrono>

#include "wall_clock.h"

namespace docket::bench {
namespace {

// The busy timeout docket's SQLite store uses by default (docket::sqlite::StoreOptions).

// Verbatim the dedup insert of SqliteUnitOfWork::try_record.
constexpr std::string_view kRecordSql =
    "INSERT INTO docket_inbox_messages (tenant, consumer_id, message_id, event_type, "
    "occurred_at, processed_at, message_source, causation_id, correlation_id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
    "ON CONFLICT (tenant, consumer_id, message_id) DO NOTHING";

}  // namespace

RawInboxSqlite::RawInboxSqlite(const std::string& path, std::string_view consumer_id)
    : consumer_id_(consumer_id),
      db_(path, kRawBusyTimeout),
      begin_(db_, "BEGIN IMMEDIATE"),
      commit_(db_, "COMMIT"),
      rollback_(db_, "ROLLBACK"),
      savepoint_(db_, "SAVEPOINT docket_message"),
      release_(db_, "RELEASE docket_message"),
      record_(db_, std::string(kRecordSql)),
      effect_(db_, std::string(kEffectInsertSql)) {}

bool RawInboxSqlite::record(const BenchDelivery& delivery) {
  record_.bind_text(1, kBenchTenant);
  record_.bind_text(2, consumer_id_);
  record_.bind_text(3, delivery.message_id);
  record_.bind_text(4, kBenchEventType);
  record_.bind_int64(5, delivery.occurred_at_micros);
  record_.bind_int64(6, now_micros());
  record_.bind_null(7);
  record_.bind_null(8);
  record_.bind_null(9);
  return record_.run() == 1;
}

void RawInboxSqlite::insert_effect(const BenchDelivery& delivery) {
  effect_.bind_text(1, consumer_id_);
  effect_.bind_text(2, delivery.message_id);
  effect_.bind_text(3, kBenchPayload);
  effect_.run();
}

void RawInboxSqlite::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  begin_.run();
  try {
    if (!record(delivery)) {
      rollback_.run();
      ++counts.skipped_duplicates;
      return;
    }
    insert_effect(delivery);
    commit_.run();
    ++counts.processed;
  } catch (...) {
    db_.rollback_and_rethrow();
  }
}

void RawInboxSqlite::deliver_batch(std::span<const BenchDelivery> deliveries,
                                   DispatchCounts& counts) {
  DispatchCounts batch;
  begin_.run();
  try {
    for (const BenchDelivery& delivery : deliveries) {
      savepoint_.run();
      if (record(delivery)) {
        insert_effect(delivery);
        ++batch.processed;
      } else {
        ++batch.skipped_duplicates;
      }
      release_.run();
    }
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  counts += batch;
}

}  // namespace docket::bench
