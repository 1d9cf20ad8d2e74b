// The URL factories of the event, snapshot and saga stores.
#include "docket/open_event_store.h"
#include "docket/open_saga_store.h"
#include "docket/open_snapshot_store.h"
#include "providers/open_by_url.h"

namespace docket {

std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock) {
  return providers::open_by_url(url, "event store", clock,
                                [](const auto&... db) { return open_event_store(db...); });
}

std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock) {
  return providers::open_by_url(url, "snapshot store", clock,
                                [](const auto&... db) { return open_snapshot_store(db...); });
}

std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock) {
  return providers::open_by_url(url, "saga store", clock,
                                [](const auto&... db) { return open_saga_store(db...); });
}

}  // namespace docket
