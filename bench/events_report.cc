// EventsBenchReport's totals and the checks of a run (see events_bench.h).
#include <string>

#include "events_bench.h"

namespace docket::bench {
namespace {

std::string side_name(Side side) {
  return side == kDocketSide ? "docket" : "raw baseline";
}

void check_side(const AppendCaseReport& c, Side side, std::size_t threads,
                std::vector<std::string>& problems) {
  const AppendSideReport& s = c.sides[side];
  const std::string where = side_name(side) + ", case " + c.name + ": ";
  if (s.counts.ok + s.counts.conflicts != c.appends) {
    problems.push_back(where + std::to_string(s.counts.ok) + " appends ok + " +
                       std::to_string(s.counts.conflicts) + " conflicts, not the " +
                       std::to_string(c.appends) + " appends made");
  }
  if (threads == 1 && s.counts.conflicts != 0) {
    problems.push_back(where + std::to_string(s.counts.conflicts) +
                       " conflicts with one thread, where each append expects the version "
                       "the previous one left");
  }
  const auto expected_events = static_cast<std::int64_t>(s.counts.ok * c.events_per_append);
  if (s.stored.events != expected_events) {
    problems.push_back(where + std::to_string(s.stored.events) + " events stored for " +
                       std::to_string(s.counts.ok) + " successful appends of " +
                       std::to_string(c.events_per_append));
  }
  if (s.stored.broken_streams != 0) {
    problems.push_back(where + std::to_string(s.stored.broken_streams) +
                       " streams whose versions are not 0, 1, 2, ... without gaps");
  }
}

}  // namespace

double LoadCaseReport::rate(Side side) const noexcept {
  const double seconds = timings.seconds(side);
  return seconds > 0 ? static_cast<double>(events[side]) / seconds : 0.0;
}

std::uint64_t EventsBenchReport::appends(Side side) const noexcept {
  std::uint64_t total = 0;
  for (const auto& c : cases) {
    total += c.sides[side].counts.ok + c.sides[side].counts.conflicts;
  }
  return total;
}

std::uint64_t EventsBenchReport::events(Side side) const noexcept {
  std::uint64_t total = 0;
  for (const auto& c : cases) {
    total += c.sides[side].counts.events;
  }
  return total;
}

std::uint64_t EventsBenchReport::conflicts(Side side) const noexcept {
  std::uint64_t total = 0;
  for (const auto& c : cases) {
    total += c.sides[side].counts.conflicts;
  }
  return total;
}

double EventsBenchReport::rate(Side side) const noexcept {
  double seconds = 0;
  for (const auto& c : cases) {
    seconds += c.sides[side].seconds;
  }
  return seconds > 0 ? static_cast<double>(appends(side)) / seconds : 0.0;
}

void check_events_report(EventsBenchReport& report) {
  for (const AppendCaseReport& c : report.cases) {
    check_side(c, kDocketSide, report.options.threads, report.problems);
    check_side(c, kRawSide, report.options.threads, report.problems);
    const auto& docket = c.sides[kDocketSide];
    const auto& raw = c.sides[kRawSide];
    if (docket.counts.conflicts == raw.counts.conflicts &&
        docket.stored.events != raw.stored.events) {
      report.problems.push_back("case " + c.name + ": docket stored " +
                                std::to_string(docket.stored.events) +
                                " events and the raw baseline " +
                                std::to_string(raw.stored.events) + " with as many conflicts");
    }
  }
  const LoadCaseReport& load = report.load;
  const std::uint64_t expected = static_cast<std::uint64_t>(load.loads) * load.stream_length;
  for (const Side side : {kDocketSide, kRawSide}) {
    if (load.events[side] != expected) {
      report.problems.push_back(side_name(side) + ", load: " + std::to_string(load.events[side]) +
                                " events loaded by " + std::to_string(load.loads) + " loads of " +
                                std::to_string(load.stream_length) + "-event streams");
    }
  }
}

}  // namespace docket::bench
