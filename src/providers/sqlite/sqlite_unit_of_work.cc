#include "providers/sqlite/sqlite_unit_of_work.h"

#include <array>
#include <string>

#include "docket/core/error.h"
#include "providers/kit/time_codec.h"

namespace docket::sqlite::detail {
namespace {

constexpr std::span<const ParamView> kNoParams{};

ParamView optional_text(const std::optional<std::string>& text) {
  return text ? ParamView(std::string_view(*text)) : ParamView(nullptr);
}

}  // namespace

bool dedup_row_exists(Connection& connection, const DedupKey& key) {
  const std::array<ParamView, 3> params{key.tenant, key.consumer_id, key.message_id};
  return !connection
              .query_views(
                  "SELECT 1 FROM docket_inbox_messages "
                  "WHERE tenant = ?1 AND consumer_id = ?2 AND message_id = ?3",
                  params)
              .empty();
}

SqliteUnitOfWork::SqliteUnitOfWork(Database& database)
    : database_(database), lease_(database.connect()), tx_(*lease_) {
  lease_->exec_views("BEGIN IMMEDIATE");
}

SqliteUnitOfWork::~SqliteUnitOfWork() {
  if (!ended_ && lease_->in_transaction()) {
    try {
      lease_->exec_views("ROLLBACK");
    } catch (...) {  // the pool closes a connection left in a transaction
    }
  }
}

bool SqliteUnitOfWork::try_record(const InboxRecord& record) {
  require_open("record a message");
  const auto& key = record.key;
  const std::array<ParamView, 9> params{key.tenant,
                                        key.consumer_id,
                                        key.message_id,
                                        record.event_type,
                                        kit::to_micros(record.occurred_at),
                                        kit::to_micros(database_.clock().now()),
                                        optional_text(record.source),
                                        optional_text(record.causation_id),
                                        optional_text(record.correlation_id)};
  once(record_,
       "INSERT INTO docket_inbox_messages (tenant, consumer_id, message_id, event_type, "
       "occurred_at, processed_at, message_source, causation_id, correlation_id) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
       "ON CONFLICT (tenant, consumer_id, message_id) DO NOTHING")
      .run(params, nullptr);
  return lease_->changes() == 1;
}

bool SqliteUnitOfWork::is_recorded(const DedupKey& key) {
  require_open("read a dedup row");
  return dedup_row_exists(*lease_, key);
}

void SqliteUnitOfWork::begin_savepoint() {
  require_open("begin a savepoint");
  once(savepoint_, "SAVEPOINT docket_message").run(kNoParams, nullptr);
}

void SqliteUnitOfWork::release_savepoint() {
  require_open("release a savepoint");
  once(release_, "RELEASE docket_message").run(kNoParams, nullptr);
}

void SqliteUnitOfWork::rollback_savepoint() {
  require_open("roll back to a savepoint");
  lease_->exec_views("ROLLBACK TO docket_message");
  once(release_, "RELEASE docket_message").run(kNoParams, nullptr);
}

void SqliteUnitOfWork::commit() {
  require_open("commit");
  lease_->exec_views("COMMIT");
  ended_ = true;
  if (tx_.staged_outbox())
    database_.outbox_staged()->notify();
  if (tx_.appended_events())
    database_.events_appended()->notify();
}

Statement& SqliteUnitOfWork::once(Statement*& slot, std::string_view sql) {
  if (slot == nullptr) {
    slot = &lease_->statement(sql);
  }
  return *slot;
}

void SqliteUnitOfWork::require_open(std::string_view operation) const {
  if (ended_ || !lease_->in_transaction()) {
    throw InfrastructureError("SQLite unit of work on '" + lease_->path() + "': cannot " +
                              std::string(operation) +
                              ": its transaction is no longer open (a handler must not COMMIT, "
                              "ROLLBACK or RELEASE through native(); or SQLite rolled it back "
                              "after an earlier error); the dispatcher refuses to go on with it");
  }
}

}  // namespace docket::sqlite::detail
