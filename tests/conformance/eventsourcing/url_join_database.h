// The JoinDatabase (join_case.h) of a provider whose stores open by URL and whose
// databases in tests are scratch URLs: `Scratch` gives url() and prefix(), a table or
// collection prefix of its own, emptied when it goes. Its inbox, outbox, event and saga
// stores share one scratch URL; the other database is a second one. Its event store
// joins but has no feed a projection reads, so it runs in EventJoinDatabases' suites and
// not FeedJoinDatabases'.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_URL_JOIN_DATABASE_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_URL_JOIN_DATABASE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "docket/sagas/saga_store.h"
#include "docket/stores/open_store.h"

namespace docket::conformance::eventsourcing {

// `Tx`: the provider's handler transaction; `kName`: its provider_name().
template <class Scratch, class Tx, const char* kName>
struct UrlJoinDatabase {
  using Transaction = Tx;
  static constexpr std::string_view kProvider = kName;

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return open_inbox_store(scratch.url(), clock);
  }
  std::unique_ptr<OutboxStore> open_outbox(const Clock& clock) {
    return open_outbox_store(scratch.url(), clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return open_event_store(scratch.url(), clock);
  }
  std::unique_ptr<SagaStore> open_sagas(const Clock& clock) {
    return open_saga_store(scratch.url(), clock);
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    other.emplace();
    return open_inbox_store(other->url(), clock);
  }
  // A refusal names both URLs, and so both prefixes.
  std::vector<std::string> other_database_mentions() const {
    return {other->prefix(), scratch.prefix()};
  }

  Scratch scratch;
  std::optional<Scratch> other;
};

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_URL_JOIN_DATABASE_H_
