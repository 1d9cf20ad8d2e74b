#include "side_by_side.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <latch>
#include <mutex>
#include <thread>

#include "peak_rss.h"

namespace docket::bench {
namespace {

// The share of `items` (cut at multiples of `grain`) that thread `t` of `threads` runs.
ItemRange share_of(ItemRange items, std::size_t grain, std::size_t t, std::size_t threads) {
  const std::size_t count = items.end - items.begin;
  const std::size_t chunks = (count + grain - 1) / grain;
  const std::size_t first = chunks * t / threads;
  const std::size_t last = chunks * (t + 1) / threads;
  return {items.begin + std::min(count, first * grain),
          items.begin + std::min(count, last * grain)};
}

// Runs one side over one slice with `threads` threads; returns the wall seconds from
// the start signal to the last thread's end.
double run_slice(const SideWork& work, ItemRange items, std::size_t threads, std::size_t grain) {
  std::latch start(1);
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::vector<std::jthread> workers;
  workers.reserve(threads);
  for (std::size_t t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      start.wait();
      try {
        work(t, share_of(items, grain, t, threads));
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) {
          failure = std::current_exception();
        }
      }
    });
  }
  const auto began = std::chrono::steady_clock::now();
  start.count_down();
  workers.clear();  // joins
  const auto ended = std::chrono::steady_clock::now();
  if (failure) {
    std::rethrow_exception(failure);
  }
  return std::chrono::duration<double>(ended - began).count();
}

}  // namespace

double SpanTiming::rate(Side side) const noexcept {
  const auto count = static_cast<double>(items.end - items.begin);
  return seconds[side] > 0 ? count / seconds[side] : 0.0;
}

double SideBySideTimings::seconds(Side side) const noexcept {
  double total = 0;
  for (const auto& slice : slices) {
    total += slice.seconds[side];
  }
  return total;
}

double SideBySideTimings::rate(Side side) const noexcept {
  const double total = seconds(side);
  // The timed slices' items: a warm-up's come before the first and are not counted.
  std::size_t items = 0;
  for (const auto& slice : slices) {
    items += slice.items.end - slice.items.begin;
  }
  return total > 0 ? static_cast<double>(items) / total : 0.0;
}

double SideBySideTimings::median_slice_ratio() const {
  std::vector<double> ratios;
  ratios.reserve(slices.size());
  for (const auto& slice : slices) {
    if (slice.seconds[kDocketSide] > 0) {
      ratios.push_back(slice.seconds[kRawSide] / slice.seconds[kDocketSide]);
    }
  }
  if (ratios.empty()) {
    return 0.0;
  }
  const auto middle = ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2);
  std::nth_element(ratios.begin(), middle, ratios.end());
  if (ratios.size() % 2 == 1) {
    return *middle;
  }
  const double upper = *middle;
  return (*std::max_element(ratios.begin(), middle) + upper) / 2;
}

std::vector<SpanTiming> SideBySideTimings::segments(std::size_t segment_items) const {
  std::vector<SpanTiming> merged;
  for (const auto& slice : slices) {
    if (merged.empty() || merged.back().items.end - merged.back().items.begin >=
                              std::max<std::size_t>(1, segment_items)) {
      merged.push_back(SpanTiming{.items = {slice.items.begin, slice.items.begin}});
    }
    SpanTiming& segment = merged.back();
    segment.items.end = slice.items.end;
    segment.seconds[kDocketSide] += slice.seconds[kDocketSide];
    segment.seconds[kRawSide] += slice.seconds[kRawSide];
    segment.peak_rss_bytes = slice.peak_rss_bytes;
  }
  return merged;
}

SideBySideTimings run_side_by_side(const SideBySideShape& shape, const SideWork& docket_work,
                                   const SideWork& raw_work) {
  const std::size_t threads = std::max<std::size_t>(1, shape.threads);
  const std::size_t grain = std::max<std::size_t>(1, shape.grain);
  const std::size_t slice_items = std::max<std::size_t>(1, shape.slice_items);
  const std::size_t warmup = std::min(shape.items, shape.warmup_items);
  SideBySideTimings timings;
  std::size_t slices_run = 0;
  for (std::size_t begin = 0, end = 0; begin < shape.items; begin = end, ++slices_run) {
    // A slice never straddles the end of the warm-up.
    end = std::min(begin < warmup ? warmup : shape.items, begin + slice_items);
    SpanTiming slice{.items = {begin, end}};
    const bool docket_first = slices_run % 2 == 0;
    for (const Side side :
         {docket_first ? kDocketSide : kRawSide, docket_first ? kRawSide : kDocketSide}) {
      slice.seconds[side] =
          run_slice(side == kDocketSide ? docket_work : raw_work, slice.items, threads, grain);
    }
    slice.peak_rss_bytes = peak_rss_bytes();
    if (begin >= warmup) {
      timings.slices.push_back(slice);
    }
  }
  return timings;
}

}  // namespace docket::bench
