#include "keys_bench.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "option_checks.h"

namespace docket::bench {
namespace {

// Keeps the compiler from dropping a copy whose bytes are never read.
inline void keep(const void* pointer) {
  asm volatile("" : : "r"(pointer) : "memory");
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

void validate(const KeysBenchOptions& o) {
  require_option(!(o.seconds && o.iterations),
                 "--seconds and --iterations are both given; pass one: --seconds for the time "
                 "each case runs, --iterations for the keys each side composes per case");
  if (o.seconds) {
    const double s = *o.seconds;
    require_option(std::isfinite(s) && s >= KeysBenchOptions::kMinSeconds &&
                       s <= KeysBenchOptions::kMaxSeconds,
                   "--seconds is " + seconds_text(s) + "; pass " +
                       seconds_text(KeysBenchOptions::kMinSeconds) + " to " +
                       seconds_text(KeysBenchOptions::kMaxSeconds) + " (seconds per case)");
  }
  if (o.iterations) {
    require_count("--iterations", *o.iterations, KeysBenchOptions::kMaxIterations);
  }
  for (auto p = o.providers.begin(); p != o.providers.end(); ++p) {
    require_option(std::find(o.providers.begin(), p, *p) == p,
                   "--provider " + std::string(keys::provider_name(*p)) +
                       " is given twice; name each provider once");
  }
}

// One side's pass over `count` tuples from `first` (cyclically); returns its seconds
// and adds the output bytes it produced to `output_bytes`.
template <typename KeyBytes>
double timed_pass(const KeyWorkload& workload, std::size_t first, std::size_t count,
                  std::uint64_t& output_bytes, KeyBytes key_bytes) {
  const std::size_t tuples = workload.tuples();
  std::size_t bytes = 0;
  const auto began = std::chrono::steady_clock::now();
  for (std::size_t k = 0, i = first; k < count; ++k) {
    bytes += key_bytes(i);
    if (++i == tuples) {
      i = 0;
    }
  }
  const auto ended = std::chrono::steady_clock::now();
  output_bytes += bytes;
  return std::chrono::duration<double>(ended - began).count();
}

double docket_pass(const KeyWorkload& workload, std::size_t first, std::size_t count,
                   std::uint64_t& output_bytes) {
  return timed_pass(workload, first, count, output_bytes,
                    [&workload](std::size_t i) { return workload.compose(i); });
}

double raw_pass(const KeyWorkload& workload, std::size_t first, std::size_t count,
                std::uint64_t& output_bytes) {
  return timed_pass(workload, first, count, output_bytes, [&workload](std::size_t i) {
    const std::string copy(workload.key(i));
    keep(copy.data());
    return copy.size();
  });
}

// Keys per slice: about kSliceSeconds of docket's side, timed over one warm-up pass of
// every tuple (which also warms the caches and the allocator for both sides).
std::size_t slice_keys(const KeyWorkload& workload) {
  std::uint64_t ignored = 0;
  raw_pass(workload, 0, workload.tuples(), ignored);
  const double seconds = docket_pass(workload, 0, workload.tuples(), ignored);
  const double per_key = seconds / static_cast<double>(workload.tuples());
  if (per_key <= 0) {
    return workload.tuples();
  }
  return std::clamp<std::size_t>(
      static_cast<std::size_t>(KeysBenchOptions::kSliceSeconds / per_key), 1, 10'000'000);
}

void finish_side(KeysSideReport& side, const SideBySideTimings& timings, Side which) {
  side.seconds = timings.seconds(which);
  side.rate = timings.rate(which);
  if (side.seconds > 0) {
    side.input_byte_rate = static_cast<double>(side.input_bytes) / side.seconds;
    side.output_byte_rate = static_cast<double>(side.output_bytes) / side.seconds;
  }
}

KeysCaseReport run_case(const KeyCase& key_case, TermSet terms, const KeysBenchOptions& o) {
  const KeyWorkload workload(key_case, terms);
  KeysCaseReport report;
  report.key_case = key_case;
  report.terms = terms;
  report.shape = workload.shape();
  report.field = workload.field();
  report.limit_bytes = workload.limit_bytes();
  report.tuples = workload.tuples();
  const std::size_t slice = slice_keys(workload);
  std::array<std::uint64_t, 2> output_bytes{};
  std::uint64_t input_bytes = 0;
  std::size_t done = 0;
  std::size_t first = 0;
  double elapsed = 0;
  for (;;) {
    const std::size_t count = o.iterations ? std::min(slice, *o.iterations - done) : slice;
    if (count == 0) {
      break;
    }
    SpanTiming span{.items = {done, done + count}};
    const bool docket_first = report.timings.slices.size() % 2 == 0;
    for (const Side side :
         {docket_first ? kDocketSide : kRawSide, docket_first ? kRawSide : kDocketSide}) {
      span.seconds[side] = side == kDocketSide
                               ? docket_pass(workload, first, count, output_bytes[side])
                               : raw_pass(workload, first, count, output_bytes[side]);
    }
    for (std::size_t k = 0, i = first; k < count; ++k, i = (i + 1) % workload.tuples()) {
      input_bytes += workload.input_bytes(i);
    }
    report.timings.slices.push_back(span);
    first = (first + count) % workload.tuples();
    done += count;
    elapsed += span.seconds[kDocketSide] + span.seconds[kRawSide];
    if (!o.iterations && elapsed >= *o.seconds) {
      break;
    }
  }
  for (const Side side : {kDocketSide, kRawSide}) {
    KeysSideReport& report_side = side == kDocketSide ? report.docket : report.raw;
    report_side.keys = done;
    report_side.input_bytes = input_bytes;
    report_side.output_bytes = output_bytes[side];
    finish_side(report_side, report.timings, side);
  }
  report.ratio = report.raw.rate > 0 ? report.docket.rate / report.raw.rate : 0.0;
  return report;
}

void check(const KeysCaseReport& c, std::vector<std::string>& problems) {
  if (c.docket.output_bytes != c.raw.output_bytes) {
    problems.push_back(std::string(keys::provider_name(c.key_case.provider)) + " " +
                       std::string(to_string(c.key_case.kind)) + " " +
                       std::string(to_string(c.terms)) + ": docket composed " +
                       std::to_string(c.docket.output_bytes) + " key bytes, the raw side copied " +
                       std::to_string(c.raw.output_bytes));
  }
}

template <typename Better>
const KeysCaseReport* best_worst_case(const std::vector<KeysCaseReport>& cases, Better better) {
  const KeysCaseReport* found = nullptr;
  for (const KeysCaseReport& c : cases) {
    if (c.terms == TermSet::kWorstCase && (found == nullptr || better(c, *found))) {
      found = &c;
    }
  }
  return found;
}

}  // namespace

const KeysCaseReport* KeysBenchReport::slowest_worst_case() const noexcept {
  return best_worst_case(cases, [](const KeysCaseReport& a, const KeysCaseReport& b) {
    return a.docket.input_byte_rate < b.docket.input_byte_rate;
  });
}

const KeysCaseReport* KeysBenchReport::lowest_worst_case_ratio() const noexcept {
  return best_worst_case(
      cases, [](const KeysCaseReport& a, const KeysCaseReport& b) { return a.ratio < b.ratio; });
}

KeysBenchReport run_keys_bench(const KeysBenchOptions& options) {
  validate(options);
  KeysBenchReport report;
  report.options = options;
  if (report.options.providers.empty()) {
    report.options.providers.assign(keys::kAllProviders.begin(), keys::kAllProviders.end());
  }
  if (!report.options.iterations && !report.options.seconds) {
    report.options.seconds = KeysBenchOptions::kDefaultSeconds;
  }
  for (const KeyCase& key_case : key_cases(report.options.providers)) {
    for (const TermSet terms : {TermSet::kRealistic, TermSet::kWorstCase}) {
      report.cases.push_back(run_case(key_case, terms, report.options));
      check(report.cases.back(), report.problems);
    }
  }
  return report;
}

}  // namespace docket::bench
