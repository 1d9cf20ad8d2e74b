// The URL factories of every store (docket/stores/open_store.h): each asks the registry for
// the URL's provider and that provider's factory of the store.
#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "docket/sagas/saga_store.h"
#include "docket/stores/open_store.h"
#include "providers/registry.h"

namespace docket {
namespace {

template <class Store>
std::unique_ptr<Store> open_from_url(std::string_view url, const Clock& clock) {
  return providers::Registry::builtin().open<Store>(url, clock);
}

}  // namespace

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  return open_from_url<InboxStore>(url, clock);
}

std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock) {
  return open_from_url<CheckpointStore>(url, clock);
}

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock) {
  return open_from_url<OutboxStore>(url, clock);
}

std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock) {
  return open_from_url<EventStore>(url, clock);
}

std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock) {
  return open_from_url<SnapshotStore>(url, clock);
}

std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock) {
  return open_from_url<SagaStore>(url, clock);
}

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(std::string_view url, const Clock& clock) {
  return open_from_url<ClaimInboxStore>(url, clock);
}

}  // namespace docket
