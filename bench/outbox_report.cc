// The checks of a `docket bench outbox` run (see outbox_bench.h).
#include <string>

#include "outbox_bench.h"

namespace docket::bench {

namespace {

void check_side(const OutboxBenchReport& report, Side side, std::vector<std::string>& problems) {
  const std::string where = side == kDocketSide ? "docket: " : "raw baseline: ";
  const OutboxSideCheck& c = report.checks[side];
  const auto staged =
      static_cast<std::int64_t>(report.options.messages * report.options.relays.size());
  if (c.rows != staged) {
    problems.push_back(where + std::to_string(c.rows) + " outbox rows of the run for " +
                       std::to_string(staged) + " messages staged");
  }
  if (c.done != c.rows) {
    problems.push_back(where + std::to_string(c.rows - c.done) + " of the run's " +
                       std::to_string(c.rows) + " outbox rows are not marked done");
  }
  if (c.unpublished != 0) {
    problems.push_back(where + std::to_string(c.unpublished) + " staged messages never published");
  }
  if (c.unknown != 0) {
    problems.push_back(where + std::to_string(c.unknown) +
                       " published ids that are not messages of the run");
  }
  for (const RelayRunReport& run : report.relay_runs) {
    const RelayTally& tally = run.tally[side];
    if (tally.published != report.options.messages || tally.not_done != 0) {
      problems.push_back(where + std::to_string(run.relays) + " relays published and marked done " +
                         std::to_string(tally.published) + " of " +
                         std::to_string(report.options.messages) + " messages (" +
                         std::to_string(tally.not_done) + " published but not marked done)");
    }
  }
}

}  // namespace

void check_outbox_report(OutboxBenchReport& report) {
  check_side(report, kDocketSide, report.problems);
  check_side(report, kRawSide, report.problems);
  const OutboxSideCheck& docket = report.checks[kDocketSide];
  const OutboxSideCheck& raw = report.checks[kRawSide];
  if (docket.rows != raw.rows || docket.distinct != raw.distinct) {
    report.problems.push_back("docket staged " + std::to_string(docket.rows) + " and published " +
                              std::to_string(docket.distinct) +
                              " distinct messages, the raw baseline " + std::to_string(raw.rows) +
                              " and " + std::to_string(raw.distinct));
  }
}

}  // namespace docket::bench
