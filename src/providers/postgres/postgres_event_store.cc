// The PostgreSQL EventStore: each append one autocommit statement (its own READ
// COMMITTED transaction) on a pooled connection, or one statement in the caller's
// transaction; reads as autocommit statements.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "docket/postgres/event_store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/postgres_capabilities.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_event_rows.h"
#include "providers/postgres/postgres_eventsourcing_schema.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_join.h"
#include "providers/postgres/postgres_listener.h"
#include "providers/postgres/postgres_transaction_access.h"

namespace docket::postgres::detail {
namespace {

class PostgresEventStore final : public EventStore {
 public:
  PostgresEventStore(const StoreOptions& options, const Clock& clock)
      : EventStore(clock),
        database_(options, clock, {eventsourcing_schema_component()}),
        conninfo_(options.conninfo) {
    database_.migrate();
    auto lease = database_.connect();
    tag_ = events_lock_tag(*lease);
    table_ = table_identity(*lease, "docket_events");
  }

  std::string_view provider_name() const noexcept override { return "postgres"; }
  StoreCapabilities capabilities() const noexcept override { return kPostgresCapabilities; }

  // Woken by every process's appends to this schema's events (schema version 6's
  // trigger), heard on one listening connection per process and database URL.
  std::shared_ptr<WakeSignal> appended_signal() override {
    const std::lock_guard lock(listener_mutex_);
    if (!listener_)
      listener_ = shared_listener(conninfo_, "'docket_events_' || md5(current_schema())");
    return listener_->signal();
  }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override {
    auto lease = database_.connect();
    return append_events(*lease, tag_, stream, expected, events, Joining::kOwnTransaction);
  }

  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override {
    return append_events(joinable(transaction), tag_, stream, expected, events,
                         Joining::kCallersTransaction);
  }

  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override {
    auto lease = database_.connect();
    return load_events(*lease, stream, from_version);
  }

  ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                          const TenantId* tenant) override {
    auto lease = database_.connect();
    return read_events(*lease, tag_, from_position, limit, tenant);
  }

  // MAX over the primary key, or over the (tenant, global_position) index.
  std::int64_t do_last_position(const TenantId* tenant) override {
    auto lease = database_.connect();
    const Result r =
        tenant == nullptr
            ? exec_prepared(*lease, "docket_events_last_position",
                            "SELECT COALESCE(MAX(global_position), 0) FROM docket_events")
            : exec_prepared(*lease, "docket_events_tenant_last_position",
                            "SELECT COALESCE(MAX(global_position), 0) FROM docket_events "
                            "WHERE tenant = $1",
                            tenant->value());
    return r.int64(0, 0);
  }

  // `transaction` as a connection whose search_path resolves docket_events to this
  // store's table, or ConfigurationError: appending elsewhere would commit the events
  // where this store never reads them.
  Connection& joinable(HandlerTransaction& transaction) const {
    if (auto refusal = join_refusal(transaction, "event store", "docket_events", table_)) {
      throw cannot_join_error(transaction, *refusal);
    }
    return TransactionAccess::connection(static_cast<Transaction&>(transaction));
  }

  Database database_;
  const std::string conninfo_;
  std::mutex listener_mutex_;
  std::shared_ptr<kit::NotificationListener> listener_;  // opened by the first appended_signal()
  std::int64_t tag_ = 0;
  std::string table_;
};

}  // namespace

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<EventStore> open_event_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresEventStore>(options, clock);
}

}  // namespace docket::postgres
