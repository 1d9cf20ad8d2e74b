#include "outbox_bench.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "bench_registry.h"
#include "docket/core/error.h"
#include "docket_outbox_side.h"
#include "option_checks.h"
#include "request_unit_count.h"
#include "round_trip_count.h"
#include "run_schemas.h"

namespace docket::bench {

namespace {

constexpr std::size_t kMaxBatch = 10'000;

void validate(const OutboxBenchOptions& o) {
  require_option(o.messages > 0, "--messages is 0; pass how many messages to stage (at least 1)");
  require_count("--threads", o.threads, kMaxBenchThreads);
  require_count("--batch", o.batch, kMaxBatch);
  for (const std::size_t r : o.relays) {
    require_option(r > 0 && r <= kMaxBenchThreads, "--relays has " + std::to_string(r) +
                                                       "; pass relay counts from 1 to " +
                                                       std::to_string(kMaxBenchThreads));
  }
}

struct OutboxSides {
  const OutboxBenchOptions& options;
  std::array<PublishLog, 2> logs;
  std::array<std::vector<std::unique_ptr<OutboxSession>>, 2> sessions;  // a pair per thread
};

SideWork relay_work(OutboxSides& sides, Side side, std::vector<RelayTally>& tallies) {
  return [&sides, side, &tallies](std::size_t t, ItemRange items) {
    // Passes until this thread's share is relayed; a short last batch may take rows of
    // another thread's share, which then finds none and stops.
    for (std::uint64_t relayed = 0; relayed < items.end - items.begin;) {
      const RelayTally pass = sides.sessions[side][t]->relay_pass();
      tallies[t] += pass;
      if (pass.claimed == 0) {
        return;
      }
      relayed += pass.claimed;
    }
  };
}

RelayRunReport run_relays(OutboxSides& sides, const ProviderBench& provider, std::size_t relays) {
  RelayRunReport run;
  const RoundTripCount trips(provider);
  const RequestUnitCount units(provider);
  run.relays = relays;
  std::array<std::vector<RelayTally>, 2> tallies{std::vector<RelayTally>(relays),
                                                 std::vector<RelayTally>(relays)};
  const std::size_t batch = sides.options.batch;
  run.timings = run_side_by_side(SideBySideShape{.items = sides.options.messages,
                                                 .slice_items = batch * relays,
                                                 .threads = relays,
                                                 .grain = batch},
                                 relay_work(sides, kDocketSide, tallies[kDocketSide]),
                                 relay_work(sides, kRawSide, tallies[kRawSide]));
  run.round_trips_per_message = trips.per_item(sides.options.messages);
  run.request_units_per_message = units.per_item(sides.options.messages);
  for (const Side side : {kDocketSide, kRawSide}) {
    for (const RelayTally& tally : tallies[side]) {
      run.tally[side] += tally;
    }
  }
  return run;
}

}  // namespace

OutboxBenchReport run_outbox_bench(OutboxBenchOptions options) {
  validate(options);
  OutboxBenchReport report;
  report.run_id = new_run_id();
  const std::string hex = report.run_id.substr(report.run_id.size() - 8);
  report.store = parse_bench_store(options.store_url, "docket_bench_ob_" + hex + "_docket",
                                   "docket_bench_ob_" + hex + "_raw");
  const OutboxBench& provider = outbox_bench(report.store);
  if (options.relays.empty()) {
    options.relays = provider.default_relays();
  }
  report.options = options;
  const RunSchemas schemas(report.store);
  report.store.provider->create_sides(report.store);
  const std::size_t threads =
      std::max(options.threads, *std::max_element(options.relays.begin(), options.relays.end()));
  auto store = provider.open_docket_store(report.store.docket_db, threads + 1);
  store->migrate();
  provider.open_docket_store(report.store.raw_db, 1)->migrate();  // set-up
  for (const std::string& db : {report.store.docket_db, report.store.raw_db}) {
    refuse_pending_rows(provider, db);
  }

  const MessageIds raw_ids(options.messages * options.relays.size(), IdOrder::kTimeOrdered);
  OutboxSides sides{.options = options, .logs = {}, .sessions = {}};
  CountingTransport transport(sides.logs[kDocketSide]);
  for (std::size_t t = 0; t < threads; ++t) {
    sides.sessions[kDocketSide].push_back(
        std::make_unique<DocketOutboxSession>(*store, transport, options.batch, report.run_id));
    sides.sessions[kRawSide].push_back(provider.raw_session(
        report.store.raw_db, report.run_id, raw_ids, sides.logs[kRawSide], options.batch));
  }
  auto stage_work = [&](Side side) {
    return [&, side](std::size_t t, ItemRange items) {
      for (std::size_t m = items.begin; m < items.end; ++m) {
        sides.sessions[side][t]->stage(m);
      }
    };
  };
  const std::size_t slice = (OutboxBenchOptions::kSliceMessages + options.threads - 1) /
                            options.threads * options.threads;
  const RoundTripCount stage_trips(*report.store.provider);
  const RequestUnitCount stage_units(*report.store.provider);
  report.stage = run_side_by_side(
      SideBySideShape{.items = options.messages, .slice_items = slice, .threads = options.threads},
      stage_work(kDocketSide), stage_work(kRawSide));
  report.stage_round_trips_per_message = stage_trips.per_item(options.messages);
  report.stage_request_units_per_message = stage_units.per_item(options.messages);
  // A refill transaction holds at most what one commit of the store holds (Cosmos DB and
  // DynamoDB: 100 writes).
  const std::size_t max_writes = store->capabilities().max_writes_per_commit;
  const std::size_t fill = max_writes == 0
                               ? OutboxBenchOptions::kFillMessages
                               : std::min(OutboxBenchOptions::kFillMessages, max_writes);
  for (std::size_t run = 0; run < options.relays.size(); ++run) {
    for (std::size_t first = run * options.messages;
         run > 0 && first < (run + 1) * options.messages; first += fill) {
      const std::size_t count = std::min(fill, (run + 1) * options.messages - first);
      sides.sessions[kDocketSide][0]->fill(first, count);
      sides.sessions[kRawSide][0]->fill(first, count);
    }
    report.relay_runs.push_back(run_relays(sides, *report.store.provider, options.relays[run]));
  }
  for (const Side side : {kDocketSide, kRawSide}) {
    report.checks[side] = check_outbox_side(
        provider, side == kDocketSide ? report.store.docket_db : report.store.raw_db, report.run_id,
        sides.logs[side]);
  }
  check_outbox_report(report);
  return report;
}

}  // namespace docket::bench
