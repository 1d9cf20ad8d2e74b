#include "suite.h"

#include "conformance/fixture_registry.h"
#include "docket/core/error.h"
#include "providers/registry.h"

namespace docket::conformance::eventsourcing {

void StoreConformance::SetUp() {
  fixture_ = GetParam().make();
  if (offers_events(GetParam())) {
    events_ = fixture_->open_event_store(clock_);
    EXPECT_EQ(events_->provider_name(), GetParam().provider);
    // The case's feed gates the tests it runs: it must be what the store states.
    ASSERT_EQ(events_->capabilities().feed, GetParam().feed)
        << "the " << GetParam().name << " case states a feed its event store does not";
  }
  if (offers_snapshots(GetParam())) {
    snapshots_ = fixture_->open_snapshot_store(clock_);
    EXPECT_EQ(snapshots_->provider_name(), GetParam().provider);
  }
  if (offers_sagas(GetParam())) {
    sagas_ = fixture_->open_saga_store(clock_);
    EXPECT_EQ(sagas_->provider_name(), GetParam().provider);
  }
}

bool StoreConformance::has_global_feed() const {
  return GetParam().feed == FeedKind::kGlobalPositions;
}

std::int64_t StoreConformance::append_ok(const StreamId& stream, ExpectedVersion expected,
                                         const std::vector<NewEvent>& events) {
  const AppendResult result = events_->append(stream, expected, events);
  EXPECT_TRUE(result.succeeded()) << (result.is_conflict() ? result.conflict().message() : "");
  return result.value_or_throw().new_version;
}

std::vector<RecordedEvent> StoreConformance::read_everything(std::size_t page_size) {
  std::vector<RecordedEvent> all;
  std::int64_t next = 0;
  for (;;) {
    ReadAllPage page = events_->read_all(next, page_size);
    if (page.events.empty()) {
      return all;
    }
    next = page.next_position;
    all.insert(all.end(), page.events.begin(), page.events.end());
  }
}

void StoreConformance::expect_store_total(std::size_t count) {
  if (has_global_feed()) {
    EXPECT_EQ(read_everything().size(), count) << "events in the whole store";
  }
}

void PrintTo(const ProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::string provider_name(const ::testing::TestParamInfo<ProviderCase>& info) {
  return info.param.name;
}

std::vector<ProviderCase> all_providers() {
  return FixtureRegistry<ProviderCase>::all();
}

namespace {

const providers::ProviderRegistration* registration_of(const ProviderCase& provider) {
  for (const providers::ProviderRegistration* registration :
       providers::Registry::builtin().providers()) {
    if (registration->name == provider.provider) {
      return registration;
    }
  }
  return nullptr;
}

}  // namespace

bool offers_events(const ProviderCase& provider) {
  const auto* registration = registration_of(provider);
  return registration != nullptr && registration->event != nullptr;
}

bool offers_snapshots(const ProviderCase& provider) {
  const auto* registration = registration_of(provider);
  return registration != nullptr && registration->snapshot != nullptr;
}

bool offers_sagas(const ProviderCase& provider) {
  const auto* registration = registration_of(provider);
  return registration != nullptr && registration->saga != nullptr;
}

std::vector<ProviderCase> event_providers() {
  return FixtureRegistry<ProviderCase>::where(offers_events);
}

std::vector<ProviderCase> snapshot_providers() {
  return FixtureRegistry<ProviderCase>::where(offers_snapshots);
}

std::vector<ProviderCase> aggregate_providers() {
  return FixtureRegistry<ProviderCase>::where([](const ProviderCase& provider) {
    return offers_events(provider) && offers_snapshots(provider);
  });
}

std::vector<ProviderCase> saga_providers() {
  return FixtureRegistry<ProviderCase>::where(offers_sagas);
}

std::vector<ProviderCase> global_feed_providers() {
  return FixtureRegistry<ProviderCase>::where([](const ProviderCase& provider) {
    return offers_events(provider) && provider.feed == FeedKind::kGlobalPositions;
  });
}

std::vector<ProviderCase> feedless_providers() {
  return FixtureRegistry<ProviderCase>::where([](const ProviderCase& provider) {
    return offers_events(provider) && provider.feed == FeedKind::kNone;
  });
}

std::vector<ProviderCase> late_commit_providers() {
  return FixtureRegistry<ProviderCase>::where(
      [](const ProviderCase& provider) { return provider.late_commit; });
}

std::unique_ptr<EventStore> StoreFixture::open_event_store(const Clock&) {
  throw ConfigurationError(
      "this provider offers no event store: only cases of event_providers() open one");
}

std::unique_ptr<SnapshotStore> StoreFixture::open_snapshot_store(const Clock&) {
  throw ConfigurationError(
      "this provider offers no snapshot store: only cases of snapshot_providers() open one");
}

std::unique_ptr<SagaStore> StoreFixture::open_saga_store(const Clock&) {
  throw ConfigurationError(
      "this provider offers no saga store: only cases of saga_providers() open one");
}

std::unique_ptr<PendingAppend> StoreFixture::begin_pending_append(EventStore& store,
                                                                  const StreamId&,
                                                                  const NewEvent&) {
  throw ConfigurationError(std::string(store.provider_name()) +
                           " has no in-flight appends: only fixtures registered with "
                           "late_commit implement begin_pending_append.");
}

}  // namespace docket::conformance::eventsourcing
