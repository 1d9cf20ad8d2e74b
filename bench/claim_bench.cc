#include "claim_bench.h"

#include <cstdint>
#include <memory>
#include <string_view>

#include "bench_registry.h"
#include "docket_claim_side.h"
#include "message_ids.h"
#include "option_checks.h"
#include "round_trip_count.h"

namespace docket::bench {
namespace {

void validate(const ClaimBenchOptions& o) {
  require_count("--messages", o.messages, ClaimBenchOptions::kMaxMessages);
  require_option(o.warmup <= ClaimBenchOptions::kMaxMessages - o.messages,
                 "--warmup must leave --warmup + --messages at most " +
                     std::to_string(ClaimBenchOptions::kMaxMessages));
  require_count("--threads", o.threads, kMaxBenchThreads);
}

// Whole slices for every thread.
std::size_t slice_size(std::size_t threads) {
  return (ClaimBenchOptions::kSliceMessages + threads - 1) / threads * threads;
}

ClaimSideReport side_report(const std::vector<ClaimCycleCounts>& per_thread,
                            const ClaimBench& provider, const std::string& db,
                            std::string_view run_id, const SideBySideTimings& timings, Side side) {
  ClaimSideReport report;
  for (const ClaimCycleCounts& counts : per_thread) {
    report.counts += counts;
  }
  report.rows = provider.count_rows(db, run_id);
  report.seconds = timings.seconds(side);
  report.rate = timings.rate(side);
  return report;
}

void check(std::string_view side, const ClaimSideReport& report, std::size_t messages,
           std::vector<std::string>& problems) {
  const std::string name(side);
  const std::string of_messages = " of " + std::to_string(messages) + " messages";
  auto expect = [&](std::uint64_t got, std::string_view what) {
    if (got != messages) {
      problems.push_back(name + ": " + std::string(what) + " " + std::to_string(got) + of_messages);
    }
  };
  expect(report.counts.claimed, "claimed");
  expect(report.counts.processed, "marked processed");
  expect(static_cast<std::uint64_t>(report.rows.entries), "entries stored for");
  expect(static_cast<std::uint64_t>(report.rows.processed), "entries processed for");
}

// The sessions of both sides, a pair per thread, each thread claiming as its own owner.
struct Sessions {
  std::vector<std::unique_ptr<ClaimSession>> docket;
  std::vector<std::unique_ptr<ClaimSession>> raw;
};

Sessions open_sessions(ClaimInboxStore& store, const ClaimBench& provider,
                       const std::string& raw_db, const std::string& run_id, std::size_t threads) {
  Sessions sessions;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::string owner = run_id + "/" + std::to_string(t);
    sessions.docket.push_back(std::make_unique<DocketClaimSession>(store, run_id, owner));
    sessions.raw.push_back(provider.raw_session(raw_db, run_id, owner));
  }
  return sessions;
}

SideWork cycles(std::vector<std::unique_ptr<ClaimSession>>& sessions, const MessageIds& ids,
                std::vector<ClaimCycleCounts>& counts) {
  return [&sessions, &ids, &counts](std::size_t t, ItemRange items) {
    for (std::size_t m = items.begin; m < items.end; ++m) {
      sessions[t]->cycle(ids.id(m), counts[t]);
    }
  };
}

}  // namespace

ClaimBenchReport run_claim_bench(const ClaimBenchOptions& options) {
  validate(options);
  ClaimBenchReport report;
  report.options = options;
  report.store = parse_bench_store(options.store_url);
  report.run_id = new_run_id();
  const MessageIds ids(options.total_messages(), IdOrder::kTimeOrdered);

  const ClaimBench& provider = claim_bench(report.store);
  report.store.provider->create_sides(report.store);
  auto store = provider.open_docket_store(report.store.docket_db, options.threads);
  store->migrate();
  provider.prepare(report.store);

  Sessions sessions =
      open_sessions(*store, provider, report.store.raw_db, report.run_id, options.threads);
  std::vector<ClaimCycleCounts> docket_counts(options.threads);
  std::vector<ClaimCycleCounts> raw_counts(options.threads);
  const RoundTripCount trips(*report.store.provider);
  report.timings = run_side_by_side(SideBySideShape{.items = options.total_messages(),
                                                    .warmup_items = options.warmup,
                                                    .slice_items = slice_size(options.threads),
                                                    .threads = options.threads},
                                    cycles(sessions.docket, ids, docket_counts),
                                    cycles(sessions.raw, ids, raw_counts));

  report.docket = side_report(docket_counts, provider, report.store.docket_db, report.run_id,
                              report.timings, kDocketSide);
  report.raw = side_report(raw_counts, provider, report.store.raw_db, report.run_id, report.timings,
                           kRawSide);
  report.round_trips_per_message = trips.per_item(options.total_messages());
  report.ratio = report.raw.rate > 0 ? report.docket.rate / report.raw.rate : 0.0;
  check("docket", report.docket, options.total_messages(), report.problems);
  check("raw baseline", report.raw, options.total_messages(), report.problems);
  return report;
}

}  // namespace docket::bench
