#include "suite.h"

namespace docket::conformance::eventsourcing {

void StoreConformance::SetUp() {
  fixture_ = GetParam().make();
  events_ = fixture_->open_event_store(clock_);
  snapshots_ = fixture_->open_snapshot_store(clock_);
  sagas_ = fixture_->open_saga_store(clock_);
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

void PrintTo(const ProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::string provider_name(const ::testing::TestParamInfo<ProviderCase>& info) {
  return info.param.name;
}

}  // namespace docket::conformance::eventsourcing
