// What `docket bench events` appends and loads, shared by docket's side and the raw
// baselines so that both issue the same statements with the same values.
//
// Every event is one small "deposited" event with no lineage and no trace context. A
// run's streams are told apart from earlier runs' by their aggregate type, which
// carries the run id and the case ("<run id>.one-1"); aggregate ids are "s<index>".
//
// Thread-safety: constants, plain values, and StreamVersions (atomic per stream).
#ifndef DOCKET_BENCH_EVENT_WORKLOAD_H_
#define DOCKET_BENCH_EVENT_WORKLOAD_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "message_ids.h"

namespace docket::bench {

inline constexpr std::string_view kBenchStreamTenant = "bench";
inline constexpr std::string_view kBenchEventName = "bench.deposited";
inline constexpr std::string_view kBenchEventBody = R"({"account":"A-1001","cents":250})";

// One append as both sides see it: `events` events to the stream `aggregate_id` of
// `aggregate_type`, whose version cache slot is `stream`. The raw baselines take the
// event ids ids.id(first_id) ... ids.id(first_id + events - 1), made before the clock
// starts (docket makes its own inside append).
struct AppendCall {
  std::string_view aggregate_type;
  std::string_view aggregate_id;
  std::size_t stream = 0;
  std::size_t events = 1;
  const MessageIds* ids = nullptr;
  std::size_t first_id = 0;
};

// What one side's appends returned.
struct AppendCounts {
  std::uint64_t ok = 0;
  std::uint64_t conflicts = 0;
  std::uint64_t events = 0;  // events of the successful appends

  AppendCounts& operator+=(const AppendCounts& other) noexcept {
    ok += other.ok;
    conflicts += other.conflicts;
    events += other.events;
    return *this;
  }
};

// Each stream's version as one side last saw it (-1: no stream), shared by that
// side's threads: an append expects exactly this version (no_stream() for -1) and
// stores what it learnt, the new version or the conflict's actual one. With several
// threads on one stream two appends may expect the same version; one of them then
// comes back as a conflict, on both sides alike.
class StreamVersions {
 public:
  explicit StreamVersions(std::size_t streams)
      : versions_(std::make_unique<std::atomic<std::int64_t>[]>(streams)) {
    for (std::size_t s = 0; s < streams; ++s) {
      versions_[s].store(-1, std::memory_order_relaxed);
    }
  }

  std::int64_t get(std::size_t stream) const noexcept {
    return versions_[stream].load(std::memory_order_relaxed);
  }
  void set(std::size_t stream, std::int64_t version) noexcept {
    versions_[stream].store(version, std::memory_order_relaxed);
  }

 private:
  std::unique_ptr<std::atomic<std::int64_t>[]> versions_;
};

// One aggregate type's streams in a side's database, read bypassing docket.
struct StoredStreams {
  std::int64_t streams = 0;
  std::int64_t events = 0;
  // Streams whose versions are not exactly 0 .. events - 1 (the unique stream key
  // rules out a version twice, so a count that does not match is a gap).
  std::int64_t broken_streams = 0;
};

// "s0", "s1", ...: the aggregate ids of `count` streams.
inline std::vector<std::string> stream_ids(std::size_t count) {
  std::vector<std::string> ids;
  ids.reserve(count);
  for (std::size_t s = 0; s < count; ++s) {
    ids.push_back("s" + std::to_string(s));
  }
  return ids;
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_EVENT_WORKLOAD_H_
