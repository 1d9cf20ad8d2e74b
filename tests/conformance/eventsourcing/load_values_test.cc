// What a load returns, value for value, whatever the provider reads rows with (SQLite's
// columns in place, PostgreSQL's binary results): payloads of every byte value and
// length, integers and times at their extremes, long stream identities, empty and
// absent lineage, and streams longer than any first allocation, through load and
// read_all alike where the store has global positions.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

std::string every_byte_value() {
  std::string bytes;
  for (int b = 0; b < 256; ++b) {
    bytes += static_cast<char>(b);
  }
  return bytes;
}

// Deterministic bytes of every value (a linear congruential sequence).
std::string large_payload(std::size_t size) {
  std::string bytes(size, '\0');
  std::uint32_t state = 12345;
  for (char& c : bytes) {
    state = state * 1103515245u + 12345u;
    c = static_cast<char>(state >> 24);
  }
  return bytes;
}

class EventStoreLoadValues : public StoreConformance {
 protected:
  // Loads `stream` and checks it returns exactly `expected` payloads, in order; where the
  // store has global positions, so does reading every event after `from_position`.
  void expect_payloads(const StreamId& stream, std::int64_t from_position,
                       const std::vector<std::string>& expected) {
    const std::vector<RecordedEvent> loaded = events_->load(stream);
    ASSERT_EQ(loaded.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(loaded[i].payload, expected[i]) << "load, event " << i;
    }
    if (!has_global_feed()) {
      return;
    }
    const ReadAllPage page = events_->read_all(from_position, kMaxReadAllLimit);
    ASSERT_EQ(page.events.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(page.events[i].payload, expected[i]) << "read_all, event " << i;
      EXPECT_EQ(page.events[i], loaded[i]) << "event " << i;
    }
  }

  // The largest payload the suite stores: 1 MiB, or a quarter of a record where the
  // store bounds one (a quarter leaves room for the event's other attributes).
  std::size_t large_payload_size() const {
    const std::size_t limit = events_->capabilities().max_bytes_per_record;
    return limit == 0 ? std::size_t{1} << 20 : limit / 4;
  }
};

TEST_P(EventStoreLoadValues, PayloadsComeBackByteForByte) {
  std::vector<std::string> payloads{every_byte_value(), std::string(1, '\0'),
                                    std::string(300, '\0'), std::string(),
                                    large_payload(large_payload_size())};
  // Every short length (a decoder's word and its remainders), with NUL and 0xFF bytes.
  for (std::size_t n = 1; n <= 17; ++n) {
    std::string bytes = large_payload(n);
    bytes[0] = '\0';
    bytes[n - 1] = '\xff';
    payloads.push_back(bytes);
  }
  std::vector<NewEvent> events;
  for (const std::string& payload : payloads) {
    events.push_back(event("stored", payload));
  }
  const std::int64_t before =
      has_global_feed() ? events_->read_all(0, kMaxReadAllLimit).next_position : 0;
  append_ok(account("A-1"), ExpectedVersion::no_stream(), events);
  expect_payloads(account("A-1"), before, payloads);
}

TEST_P(EventStoreLoadValues, TimesAndIdentitiesComeBackExactly) {
  using std::chrono::microseconds;
  const std::vector<Timestamp> times{
      Timestamp(microseconds(0)),
      Timestamp(microseconds(-1)),  // before 1970
      Timestamp(microseconds(std::numeric_limits<std::int32_t>::max()) + microseconds(1)),
      Timestamp(microseconds(253'402'300'799'999'999)),  // 9999-12-31T23:59:59.999999Z
      Timestamp(microseconds(-62'135'596'800'000'000)),  // 0001-01-01T00:00:00Z
  };
  // Stream terms longer than any short-string buffer, in a tenant of its own.
  const StreamId stream(TenantId(std::string(100, 't')), std::string(200, 'a') + "\xc3\xa9",
                        std::string(300, 'i'));
  std::vector<NewEvent> events;
  for (const Timestamp time : times) {
    NewEvent e = event(std::string(200, 'e'));
    e.occurred_at = time;
    events.push_back(e);
  }
  // Lineage given, given empty (stored as absent), and a trace context without state.
  events[0].metadata = EventMetadata{
      .correlation_id = std::string(256, 'c'), .causation_id = "cause", .trace_context = {}};
  events[1].metadata.trace_context =
      parse_trace_context("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "");
  const AppendResult result = events_->append(stream, ExpectedVersion::no_stream(), events);
  ASSERT_TRUE(result.succeeded());

  const std::vector<RecordedEvent> loaded = events_->load(stream);
  ASSERT_EQ(loaded.size(), times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(loaded[i].stream, stream);
    EXPECT_EQ(loaded[i].version, static_cast<std::int64_t>(i));
    EXPECT_EQ(loaded[i].global_position, result.success().events[i].global_position);
    EXPECT_EQ(loaded[i].event_id, result.success().events[i].event_id);
    EXPECT_EQ(loaded[i].type, events[i].type);
    EXPECT_EQ(loaded[i].occurred_at, times[i]) << i;
    EXPECT_EQ(loaded[i].metadata, events[i].metadata) << i;
  }
  if (has_global_feed()) {
    const ReadAllPage page = events_->read_all(0, kMaxReadAllLimit, stream.tenant());
    ASSERT_EQ(page.events.size(), times.size());
    for (std::size_t i = 0; i < times.size(); ++i) {
      EXPECT_EQ(page.events[i], loaded[i]) << i;
    }
  }
}

TEST_P(EventStoreLoadValues, LongStreamsLoadWholeAndInOrder) {
  constexpr int kEvents = 1'000;
  std::vector<NewEvent> events;
  for (int i = 0; i < kEvents; ++i) {
    events.push_back(event("e" + std::to_string(i), std::to_string(i)));
  }
  // In appends as large as the store's commit takes, with room to spare for its checks.
  const std::size_t limit = events_->capabilities().max_writes_per_commit;
  const std::size_t chunk = limit == 0 ? events.size() : limit / 2;
  for (std::size_t from = 0; from < events.size(); from += chunk) {
    const std::size_t to = std::min(events.size(), from + chunk);
    append_ok(account("A-1"), ExpectedVersion::any(),
              std::vector<NewEvent>(events.begin() + static_cast<std::ptrdiff_t>(from),
                                    events.begin() + static_cast<std::ptrdiff_t>(to)));
  }
  const std::vector<RecordedEvent> loaded = events_->load(account("A-1"));
  ASSERT_EQ(loaded.size(), static_cast<std::size_t>(kEvents));
  for (int i = 0; i < kEvents; ++i) {
    EXPECT_EQ(loaded[static_cast<std::size_t>(i)].version, i);
    EXPECT_EQ(loaded[static_cast<std::size_t>(i)].payload, std::to_string(i));
  }
  EXPECT_EQ(events_->load(account("A-1"), kEvents - 1).size(), 1u);
  EXPECT_TRUE(events_->load(account("A-1"), kEvents).empty());
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreLoadValues, ::testing::ValuesIn(event_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
