#include "suite.h"

#include "conformance/fixture_registry.h"
#include "docket/error.h"
#include "providers/registry.h"

namespace docket::conformance::eventsourcing {

void StoreConformance::SetUp() {
  fixture_ = GetParam().make();
  events_ = fixture_->open_event_store(clock_);
  snapshots_ = fixture_->open_snapshot_store(clock_);
  EXPECT_EQ(events_->provider_name(), GetParam().provider);
  EXPECT_EQ(snapshots_->provider_name(), GetParam().provider);
  // The case's feed gates the tests it runs: it must be what the store states.
  ASSERT_EQ(events_->capabilities().feed, GetParam().feed)
      << "the " << GetParam().name << " case states a feed its event store does not";
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

std::vector<ProviderCase> global_feed_providers() {
  return FixtureRegistry<ProviderCase>::where(
      [](const ProviderCase& provider) { return provider.feed == FeedKind::kGlobalPositions; });
}

std::vector<ProviderCase> feedless_providers() {
  return FixtureRegistry<ProviderCase>::where(
      [](const ProviderCase& provider) { return provider.feed == FeedKind::kNone; });
}

bool offers_sagas(const ProviderCase& provider) {
  const auto& registry = providers::Registry::builtin();
  for (const providers::ProviderRegistration* registration : registry.providers()) {
    if (registration->name == provider.provider) {
      return registration->saga != nullptr;
    }
  }
  return false;
}

std::vector<ProviderCase> saga_providers() {
  return FixtureRegistry<ProviderCase>::where(offers_sagas);
}

std::vector<ProviderCase> late_commit_providers() {
  return FixtureRegistry<ProviderCase>::where(
      [](const ProviderCase& provider) { return provider.late_commit; });
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
