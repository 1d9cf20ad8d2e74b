// Runs docket and its raw limit over the same work, in one process, alternating.
//
// The work (a number of items: deliveries, appends, ...) is cut into short slices;
// each slice is run by docket and by the raw baseline (which goes first swaps every
// slice), each with `threads` threads started together behind a latch. Alternating in
// short slices means both sides see the same machine: a noisy neighbour, or a disk
// whose fsync latency drifts, slows both rather than whichever side ran during it,
// and both sides' tables grow in step.
//
// Within a slice, thread t gets the t-th contiguous share of the items, cut at
// multiples of `grain` (the batch size) so that a batch never straddles two threads.
//
// Thread-safety: run_side_by_side() calls the work functions from its worker threads,
// at most one call per thread index at a time; they must allow that.
#ifndef DOCKET_BENCH_SIDE_BY_SIDE_H_
#define DOCKET_BENCH_SIDE_BY_SIDE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace docket::bench {

// Items [begin, end).
struct ItemRange {
  std::size_t begin = 0;
  std::size_t end = 0;
};

enum Side : std::size_t { kDocketSide = 0, kRawSide = 1 };

// One thread's part of one slice, for one side.
using SideWork = std::function<void(std::size_t thread, ItemRange items)>;

// The time each side spent on a run of items.
struct SpanTiming {
  ItemRange items;
  std::array<double, 2> seconds{};   // indexed by Side
  std::uint64_t peak_rss_bytes = 0;  // after the span

  // Items per second of `side` over this span.
  double rate(Side side) const noexcept;
};

struct SideBySideTimings {
  std::vector<SpanTiming> slices;

  double seconds(Side side) const noexcept;
  // Items per second over the whole run.
  double rate(Side side) const noexcept;
  // The median over slices of docket's rate over the raw rate in that slice. Robust to
  // a slice in which one side was preempted by another process: on a loaded machine
  // it is the steadier estimate of docket's overhead.
  double median_slice_ratio() const;
  // The slices merged into consecutive segments of at least `segment_items` items
  // (the last may be shorter), e.g. to show whether the rate decays as tables grow.
  std::vector<SpanTiming> segments(std::size_t segment_items) const;
};

struct SideBySideShape {
  std::size_t items = 0;
  // The first warmup_items items are run as the others, alternating, but left out of
  // the timings: a server that speeds up as it warms (DynamoDB Local's and the Firestore
  // emulator's JVMs) is measured warm. At most `items`.
  std::size_t warmup_items = 0;
  std::size_t slice_items = 1;
  std::size_t threads = 1;
  std::size_t grain = 1;
};

// Throws the first exception a work function threw (after every thread of that
// slice has finished).
SideBySideTimings run_side_by_side(const SideBySideShape& shape, const SideWork& docket_work,
                                   const SideWork& raw_work);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_SIDE_BY_SIDE_H_
