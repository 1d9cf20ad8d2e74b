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

  // Every event of every tenant, via read_all pages.
  std::vector<RecordedEvent> read_everything(std::size_t page_size = 1000);

  const Timestamp start_{std::chrono::seconds(1'800'000'000)};
  ManualClock clock_{start_};
  std::unique_ptr<StoreFixture> fixture_;
  std::unique_ptr<EventStore> events_;
  std::unique_ptr<SnapshotStore> snapshots_;
  std::unique_ptr<SagaStore> sagas_;
};

// Prints a provider case as its name in test failures.
void PrintTo(const ProviderCase& provider, std::ostream* os);

// "memory", "sqlite_file", ... as the test name suffix.
std::string provider_name(const ::testing::TestParamInfo<ProviderCase>& info);

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_SUITE_H_
