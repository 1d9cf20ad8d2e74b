// What `docket bench inbox` delivers and what its handler writes, shared by docket's
// side and the raw baseline so that both issue the very same statements with the very
// same values.
//
// Every message is one small order event; the handler inserts one effect row keyed by
// (consumer id, message id), with the event body, through the unit of work's
// transaction: into docket_bench_effects (consumer_id, message_id, body, primary key
// (consumer_id, message_id)), whose statements each provider's bench side writes in its
// own dialect. A plain INSERT: the inbox's dedup is what keeps it from running twice,
// and a second effect row would fail the primary key.
//
// Thread-safety: constants and plain values.
#ifndef DOCKET_BENCH_INBOX_WORKLOAD_H_
#define DOCKET_BENCH_INBOX_WORKLOAD_H_

#include <cstdint>
#include <string_view>

#include "docket/core/tenant.h"

namespace docket::bench {

inline constexpr std::string_view kBenchEventType = "bench.order-placed";
inline constexpr std::string_view kBenchPayload = R"({"order":"A-1001","qty":3})";
// The dedup rows of a benchmark are untenanted: the ambient tenant docket records then.
inline constexpr std::string_view kBenchTenant = kUntenantedSentinel;

// One delivery as both sides see it.
struct BenchDelivery {
  std::string_view message_id;
  std::int64_t occurred_at_micros = 0;
};

// What one side's dispatch calls returned.
struct DispatchCounts {
  std::uint64_t processed = 0;
  std::uint64_t skipped_duplicates = 0;

  DispatchCounts& operator+=(const DispatchCounts& other) noexcept {
    processed += other.processed;
    skipped_duplicates += other.skipped_duplicates;
    return *this;
  }
};

// What a side's database holds for one run afterwards.
struct InboxRows {
  std::int64_t dedup_rows = 0;
  std::int64_t effects = 0;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_INBOX_WORKLOAD_H_
