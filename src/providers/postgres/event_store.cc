// The PostgreSQL EventStore: each append in a READ COMMITTED transaction of its own on
// a pooled connection; reads as autocommit statements.
#include "docket/postgres/event_store.h"

#include <memory>
#include <string>
#include <utility>

#include "providers/postgres/event_rows.h"
#include "providers/postgres/eventsourcing_pool.h"
#include "providers/postgres/eventsourcing_schema.h"
#include "providers/postgres/transaction.h"

namespace docket::postgres {
namespace {

class PostgresEventStore final : public EventStore {
 public:
  PostgresEventStore(std::string conninfo, std::size_t pool_size, const Clock& clock)
      : EventStore(clock),
        pool_(open_eventsourcing_pool(std::move(conninfo), pool_size, "PostgreSQL event store")) {
    auto lease = pool_->acquire();
    tag_ = events_lock_tag(*lease);
  }

  std::string_view provider_name() const noexcept override { return "postgres"; }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override {
    auto lease = pool_->acquire();
    Transaction tx(*lease);
    AppendResult result = append_events(*lease, tag_, stream, expected, events);
    if (result.succeeded()) {
      tx.commit();
    }
    return result;
  }

  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override {
    auto lease = pool_->acquire();
    return load_events(*lease, stream, from_version);
  }

  ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                          const TenantId* tenant) override {
    auto lease = pool_->acquire();
    return read_events(*lease, tag_, from_position, limit, tenant);
  }

  std::unique_ptr<Pool> pool_;
  std::int64_t tag_ = 0;
};

}  // namespace

std::unique_ptr<EventStore> open_event_store(std::string conninfo, const Clock& clock,
                                             std::size_t pool_size) {
  return std::make_unique<PostgresEventStore>(std::move(conninfo), pool_size, clock);
}

}  // namespace docket::postgres
