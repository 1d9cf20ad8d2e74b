// The event sourcing conformance suites' test base: fresh stores per test on the
// provider under test, a manual clock, and helpers to name streams and make events.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_SUITE_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_SUITE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "fixture.h"

namespace docket::conformance::eventsourcing {

class StoreConformance : public ::testing::TestWithParam<ProviderCase> {
 protected:
  void SetUp() override;

  static TenantId tenant(std::string_view name) { return TenantId(name); }
  static StreamId account(std::string_view id, std::string_view tenant_name = "acme") {
    return StreamId(TenantId(tenant_name), "account", id);
  }
  static SagaId checkout(std::string_view id, std::string_view tenant_name = "acme") {
    return SagaId(TenantId(tenant_name), "checkout", id);
  }
  static NewEvent event(std::string type, std::string payload = {}) {
    return NewEvent{.type = std::move(type), .payload = std::move(payload)};
  }

  // Appends and requires success; returns the new version.
  std::int64_t append_ok(const StreamId& stream, ExpectedVersion expected,
                         const std::vector<NewEvent>& events);

  // Every event of every tenant, via read_all pages: only where has_global_feed().
  std::vector<RecordedEvent> read_everything(std::size_t page_size = 1000);

  // The event store's feed has global positions (the case's feed, which SetUp checked
  // against the store's capabilities).
  bool has_global_feed() const;
  // `events` (RecordedEvent or AppendedEvent), in append order, carry ascending
  // positions >= 1 where the store has global positions, and 0 where it has none.
  template <class Events>
  void expect_positions(const Events& events) const {
    std::int64_t previous = 0;
    for (const auto& e : events) {
      if (has_global_feed()) {
        EXPECT_GT(e.global_position, previous) << "the event at version " << e.version;
        previous = e.global_position;
      } else {
        EXPECT_EQ(e.global_position, 0) << "a store without global positions set one";
      }
    }
  }
  // Where the store has a feed over every stream, it holds exactly `count` events in
  // all; a test checks the streams it wrote through load() for every store.
  void expect_store_total(std::size_t count);

  const Timestamp start_{std::chrono::seconds(1'800'000'000)};
  ManualClock clock_{start_};
  std::unique_ptr<StoreFixture> fixture_;
  // Each null unless the case's provider offers the store.
  std::unique_ptr<EventStore> events_;
  std::unique_ptr<SnapshotStore> snapshots_;
  std::unique_ptr<SagaStore> sagas_;
};

// The case's provider offers the store (its registration says so).
bool offers_events(const ProviderCase& provider);
bool offers_snapshots(const ProviderCase& provider);
bool offers_sagas(const ProviderCase& provider);

// Prints a provider case as its name in test failures.
void PrintTo(const ProviderCase& provider, std::ostream* os);

// "memory", "sqlite_file", ... as the test name suffix.
std::string provider_name(const ::testing::TestParamInfo<ProviderCase>& info);

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_SUITE_H_
