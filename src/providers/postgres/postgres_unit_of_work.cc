#include "providers/postgres/postgres_unit_of_work.h"

#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_error.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_flight.h"
#include "providers/postgres/postgres_text_array.h"
#include "providers/postgres/postgres_unique_violation.h"

namespace docket::postgres::detail {
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

constexpr std::string_view kRecordAtCommitName = "docket_inbox_record_at_commit";

// A segmented batch's pre-check: the positions (from 1) of the ids already recorded.
constexpr std::string_view kRecordedAmongSql =
    "SELECT ids.ord FROM unnest($1::text[]) WITH ORDINALITY AS ids (id, ord) "
    "WHERE EXISTS (SELECT 1 FROM docket_inbox_messages AS m WHERE m.tenant = $2 "
    "AND m.consumer_id = $3 AND m.message_id = ids.id)";

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

PostgresUnitOfWork::~PostgresUnitOfWork() {
  // The connection goes back to its pool: it must not call back into this unit.
  lease_->set_recovery(nullptr);
  lease_->set_segment(std::nullopt);
}

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
  lease_->defer_write(kRecordAtCommitSql, kRecordAtCommitName, params);
  return true;
}

bool PostgresUnitOfWork::is_recorded(const DedupKey& key) {
  require_open("read a dedup row");
  return dedup_row_exists(*lease_, key);
}

void PostgresUnitOfWork::begin_savepoint() {
  require_open("begin a savepoint");
  if (segmented_) {
    open_ = segments_++;
    lease_->set_segment(open_);
  }
  block_.savepoint(kSavepoint);
}

void PostgresUnitOfWork::release_savepoint() {
  require_open("release a savepoint");
  if (stopped_at_ && open_) {
    // After the batch stopped, nothing of a later message may commit.
    rollback_savepoint();
    return;
  }
  block_.release(kSavepoint);
  close_segment();
}

void PostgresUnitOfWork::rollback_savepoint() {
  require_open("roll back to a savepoint");
  block_.rollback_to(kSavepoint);
  block_.release(kSavepoint);
  close_segment();
}

void PostgresUnitOfWork::close_segment() {
  if (segmented_) {
    open_.reset();
    lease_->set_segment(std::nullopt);
  }
}

bool PostgresUnitOfWork::defer_segments(bool stop_at_failure) {
  require_open("defer a batch's segments");
  segmented_ = true;
  stop_at_failure_ = stop_at_failure;
  lease_->set_recovery(this);
  return true;
}

std::vector<bool> PostgresUnitOfWork::recorded_among(std::string_view tenant,
                                                     std::string_view consumer_id,
                                                     std::span<const std::string> message_ids) {
  require_open("read dedup rows");
  const std::string ids = text_array_literal(message_ids);
  const std::array params{to_param(ids), to_param(tenant), to_param(consumer_id)};
  const Result result =
      exec_prepared_mapped(*lease_, "docket_inbox_recorded_among", kRecordedAmongSql, params);
  std::vector<bool> recorded(message_ids.size(), false);
  for (int row = 0; row < result.rows(); ++row) {
    const std::int64_t position = result.int64(row, 0);
    if (position >= 1 && static_cast<std::size_t>(position) <= recorded.size()) {
      recorded[static_cast<std::size_t>(position - 1)] = true;
    }
  }
  return recorded;
}

std::vector<spi::SegmentFailure> PostgresUnitOfWork::take_segment_failures() {
  return std::exchange(failures_, {});
}

bool PostgresUnitOfWork::recover(Connection& conn, std::vector<DeferredStatement>& statements,
                                 std::size_t failed, const Result& failure) {
  const std::optional<std::size_t> segment = statements[failed].segment;
  // Untagged statements (BEGIN, the pre-check, a rollback sent by a recovery) and the
  // open segment's, whose failure its handler sees, are not recovered here.
  if (!segmented_ || !segment || segment == open_) {
    return false;
  }
  spi::SegmentFailure found{.segment = *segment, .duplicate = false, .error = nullptr};
  found.duplicate = statements[failed].name == kRecordAtCommitName &&
                    failure.sqlstate() == sqlstate::kUniqueViolation;
  if (!found.duplicate) {
    try {
      throw_mapped_failure(conn, failure, statements[failed].sql);
    } catch (...) {
      found.error = std::current_exception();
    }
  }
  failures_.push_back(std::move(found));
  const bool stop = stop_at_failure_ && !failures_.back().duplicate;
  // Savepoints are released at the end of each segment, so the innermost one is the
  // failed segment's.
  std::vector<DeferredStatement> again;
  const auto command = [](std::string_view verb, std::optional<std::size_t> tag) {
    return DeferredStatement{.sql = std::string(verb) + " " + std::string(kSavepoint),
                             .write = false,
                             .name = {},
                             .params = {},
                             .segment = tag};
  };
  again.push_back(command("ROLLBACK TO SAVEPOINT", std::nullopt));
  again.push_back(command("RELEASE SAVEPOINT", std::nullopt));
  if (!stop) {
    // What the server skipped after the failed segment runs again: the later segments'
    // statements were kept, so their handlers do not run twice.
    for (std::size_t i = failed + 1; i < statements.size(); ++i) {
      if (statements[i].segment != segment) {
        again.push_back(std::move(statements[i]));
      }
    }
    conn.redefer(std::move(again));
    return true;
  }
  // Nothing after the failed segment is sent again: the later messages are left
  // undispatched. The open segment's statements, skipped, are dropped; what its handler
  // still does runs inside a savepoint of its own that is rolled back when it ends, and
  // the statement that needed a result (a read, or the COMMIT) goes on.
  stopped_at_ = segment;
  if (open_) {
    again.push_back(command("SAVEPOINT", open_));
  }
  conn.redefer(std::move(again));
  return true;
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

}  // namespace docket::postgres::detail
