#include "providers/postgres/unit_of_work.h"

#include <string>

#include "docket/error.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/exec.h"
#include "providers/postgres/flight.h"
#include "providers/postgres/unique_violation.h"

namespace docket::postgres {
namespace {

constexpr std::string_view kSavepoint = "docket_message";

constexpr std::string_view kRecordSql =
    "INSERT INTO docket_inbox_messages (tenant, consumer_id, message_id, event_type, "
    "occurred_at, processed_at, message_source, causation_id, correlation_id) "
    "VALUES ($1, $2, $3, $4, 'epoch'::timestamptz + $5 * interval '1 microsecond', "
    "'epoch'::timestamptz + $6 * interval '1 microsecond', $7, $8, $9) "
    "ON CONFLICT (tenant, consumer_id, message_id) DO NOTHING";

// The dedup insert of DedupCheck::kAtCommit: a recorded key is a unique violation,
// which aborts the flight it travels in.
constexpr std::string_view kRecordAtCommitSql =
    "INSERT INTO docket_inbox_messages (tenant, consumer_id, message_id, event_type, "
    "occurred_at, processed_at, message_source, causation_id, correlation_id) "
    "VALUES ($1, $2, $3, $4, 'epoch'::timestamptz + $5 * interval '1 microsecond', "
    "'epoch'::timestamptz + $6 * interval '1 microsecond', $7, $8, $9)";

constexpr std::string_view kExistsSql =
    "SELECT 1 FROM docket_inbox_messages "
    "WHERE tenant = $1 AND consumer_id = $2 AND message_id = $3";

}  // namespace

bool dedup_row_exists(Connection& conn, const DedupKey& key) {
  const std::array params{to_param(key.tenant), to_param(key.consumer_id),
                          to_param(key.message_id)};
  return exec_prepared_mapped(conn, "docket_inbox_exists", kExistsSql, params).rows() > 0;
}

PostgresUnitOfWork::PostgresUnitOfWork(Database& database)
    : database_(database), lease_(database.connect()), block_(*lease_), tx_(*lease_) {}

std::array<Param, 9> PostgresUnitOfWork::record_params(const InboxRecord& record) const {
  const auto& key = record.key;
  return {to_param(key.tenant),
          to_param(key.consumer_id),
          to_param(key.message_id),
          to_param(record.event_type),
          to_param(kit::to_micros(record.occurred_at)),
          to_param(kit::to_micros(database_.clock().now())),
          to_param(record.source),
          to_param(record.causation_id),
          to_param(record.correlation_id)};
}

bool PostgresUnitOfWork::try_record(const InboxRecord& record) {
  require_open("record a message");
  const auto params = record_params(record);
  return exec_prepared_mapped(*lease_, "docket_inbox_record", kRecordSql, params).affected_rows() ==
         1;
}

bool PostgresUnitOfWork::record_at_commit(const InboxRecord& record) {
  require_open("record a message");
  const auto params = record_params(record);
  lease_->defer_write(kRecordAtCommitSql, "docket_inbox_record_at_commit", params);
  return true;
}

bool PostgresUnitOfWork::is_recorded(const DedupKey& key) {
  require_open("read a dedup row");
  return dedup_row_exists(*lease_, key);
}

void PostgresUnitOfWork::begin_savepoint() {
  require_open("begin a savepoint");
  block_.savepoint(kSavepoint);
}

void PostgresUnitOfWork::release_savepoint() {
  require_open("release a savepoint");
  block_.release(kSavepoint);
}

void PostgresUnitOfWork::rollback_savepoint() {
  require_open("roll back to a savepoint");
  block_.rollback_to(kSavepoint);
  block_.release(kSavepoint);
}

void PostgresUnitOfWork::flush_deferred_writes() {
  if (lease_->writes_deferred()) {
    flush_deferred(*lease_);
  }
}

void PostgresUnitOfWork::commit() {
  require_open("commit");
  commit_mapped(block_);
}

void PostgresUnitOfWork::require_open(std::string_view operation) const {
  if (!block_.active() || !lease_->in_transaction()) {
    throw InfrastructureError("PostgreSQL unit of work on " + lease_->description() + ": cannot " +
                              std::string(operation) +
                              ": its transaction is no longer open (a handler must not COMMIT, "
                              "ROLLBACK or RELEASE through native(), and a unit of work commits "
                              "once); the dispatcher refuses to go on with it");
  }
}

}  // namespace docket::postgres
