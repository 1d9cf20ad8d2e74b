// The SQLite EventStore: its own appends in a BEGIN IMMEDIATE transaction of their
// own, appends inside an SQLite unit of work in that unit's transaction; both through
// the same SQL (sqlite_event_rows.h).
#include <memory>
#include <string>
#include <utility>

#include "docket/sqlite/event_store.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_event_rows.h"
#include "providers/sqlite/sqlite_eventsourcing_schema.h"
#include "providers/sqlite/sqlite_immediate_transaction.h"
#include "providers/sqlite/sqlite_join.h"
#include "providers/sqlite/sqlite_options.h"
#include "providers/sqlite/sqlite_transaction_access.h"

namespace docket::sqlite {
namespace {

using detail::Database;

class SqliteEventStore final : public EventStore {
 public:
  SqliteEventStore(const StoreOptions& options, const Clock& clock)
      : EventStore(clock), database_(options, clock, detail::migrate_eventsourcing_schema) {
    database_.migrate();
    file_ = detail::database_file(database_.connect()->native());
  }

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  StoreCapabilities capabilities() const noexcept override { return database_.capabilities(); }
  std::shared_ptr<WakeSignal> appended_signal() override { return database_.events_appended(); }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override {
    auto connection = database_.connect();
    TransactionAccess::OnConnection on_connection(*connection);
    Transaction& tx = on_connection.transaction();
    detail::ImmediateTransaction own(*connection);
    AppendResult result = detail::append_events(tx, stream, expected, events);
    if (result.succeeded()) {
      own.commit();
      database_.events_appended()->notify();
    }
    return result;
  }

  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override {
    Transaction& tx = joinable(transaction);
    AppendResult result = detail::append_events(tx, stream, expected, events);
    if (result.succeeded())
      TransactionAccess::note_appended_events(tx);
    return result;
  }

  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override {
    auto connection = database_.connect();
    TransactionAccess::OnConnection on_connection(*connection);
    Transaction& tx = on_connection.transaction();
    return detail::load_events(tx, stream, from_version);
  }

  ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                          const TenantId* tenant) override {
    auto connection = database_.connect();
    TransactionAccess::OnConnection on_connection(*connection);
    Transaction& tx = on_connection.transaction();
    return detail::read_events(tx, from_position, limit, tenant);
  }

  // MAX over the primary key, or over the (tenant, global_position) index.
  std::int64_t do_last_position(const TenantId* tenant) override {
    auto connection = database_.connect();
    const auto rows =
        tenant == nullptr
            ? connection->query("SELECT COALESCE(MAX(global_position), 0) FROM docket_events")
            : connection->query(
                  "SELECT COALESCE(MAX(global_position), 0) FROM docket_events WHERE tenant = ?1",
                  {tenant->value()});
    return std::get<std::int64_t>(rows.at(0).at(0));
  }

  // `transaction` as an SQLite transaction on this store's database file, or
  // ConfigurationError: appending on another file would commit the events where this
  // store never reads them.
  Transaction& joinable(HandlerTransaction& transaction) const {
    if (auto refusal = detail::join_refusal(transaction, file_, "event store")) {
      throw cannot_join_error(transaction, *refusal);
    }
    return static_cast<Transaction&>(transaction);
  }

  Database database_;
  std::string file_;
};

}  // namespace

std::unique_ptr<EventStore> open_event_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteEventStore>(
      detail::checked_options(std::move(options), "SQLite event store"), clock);
}

}  // namespace docket::sqlite
