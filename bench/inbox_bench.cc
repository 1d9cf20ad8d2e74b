#include "inbox_bench.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "bench_provider.h"
#include "bench_registry.h"
#include "delivery_plan.h"
#include "docket_inbox_side.h"
#include "option_checks.h"
#include "peak_rss.h"
#include "providers/kit/time_codec.h"
#include "round_trip_count.h"

namespace docket::bench {
namespace {

void validate(const InboxBenchOptions& options) {
  require_option(options.messages > 0,
                 "--messages is 0; pass how many messages to dispatch (at least 1)");
  require_count("--messages", options.messages, InboxBenchOptions::kMaxMessages);
  require_option(options.warmup <= InboxBenchOptions::kMaxMessages - options.messages,
                 "--warmup must leave --warmup + --messages at most " +
                     std::to_string(InboxBenchOptions::kMaxMessages));
  require_share("--duplicates", options.duplicate_share);
  require_option(options.batch > 0,
                 "--batch is 0; pass messages per transaction (1 for single dispatch)");
  require_count("--threads", options.threads, kMaxBenchThreads);
}

// Runs `deliver` or `deliver_batch` over a thread's share of a slice.
void run_share(InboxSession& session, const MessageIds& ids, const DeliveryPlan& plan,
               std::int64_t occurred_at, std::size_t batch, ItemRange items,
               std::vector<BenchDelivery>& buffer, DispatchCounts& counts) {
  auto delivery = [&](std::size_t d) {
    return BenchDelivery{ids.id(plan.message_of(d)), occurred_at};
  };
  if (batch == 1) {
    for (std::size_t d = items.begin; d < items.end; ++d) {
      session.deliver(delivery(d), counts);
    }
    return;
  }
  for (std::size_t first = items.begin; first < items.end; first += batch) {
    buffer.clear();
    for (std::size_t d = first; d < std::min(items.end, first + batch); ++d) {
      buffer.push_back(delivery(d));
    }
    session.deliver_batch(std::span<const BenchDelivery>(buffer), counts);
  }
}

InboxSideReport side_report(const std::vector<DispatchCounts>& per_thread,
                            const InboxBench& provider, const std::string& db,
                            const std::string& consumer_id, const SideBySideTimings& timings,
                            Side side) {
  InboxSideReport report;
  for (const auto& counts : per_thread) {
    report.counts += counts;
  }
  const InboxRows rows = provider.count_rows(db, consumer_id);
  report.dedup_rows = rows.dedup_rows;
  report.effects = rows.effects;
  report.seconds = timings.seconds(side);
  report.rate = timings.rate(side);
  return report;
}

void check(std::string_view side, const InboxSideReport& report, std::size_t messages,
           std::size_t deliveries, std::vector<std::string>& problems) {
  const std::string name(side);
  const auto answered = report.counts.processed + report.counts.skipped_duplicates;
  if (answered != deliveries) {
    problems.push_back(name + ": processed " + std::to_string(report.counts.processed) +
                       " + skipped_duplicates " + std::to_string(report.counts.skipped_duplicates) +
                       " = " + std::to_string(answered) + ", not the " +
                       std::to_string(deliveries) + " deliveries");
  }
  const auto expected = static_cast<std::int64_t>(messages);
  if (report.effects != expected) {
    problems.push_back(name + ": " + std::to_string(report.effects) + " effect rows for " +
                       std::to_string(messages) + " distinct messages");
  }
  if (report.dedup_rows != expected) {
    problems.push_back(name + ": " + std::to_string(report.dedup_rows) + " dedup rows for " +
                       std::to_string(messages) + " distinct messages");
  }
}

std::size_t segment_size(const InboxBenchOptions& options) {
  return options.segment_deliveries == 0 ? InboxBenchOptions::kDefaultSegmentDeliveries
                                         : options.segment_deliveries;
}

// Slices hold whole batches for every thread, and are no longer than a segment (so
// that segments can be cut at slice boundaries).
std::size_t slice_size(const InboxBenchOptions& options) {
  const std::size_t wanted = std::min(InboxBenchOptions::kSliceDeliveries, segment_size(options));
  const std::size_t unit = options.batch * options.threads;
  return (wanted + unit - 1) / unit * unit;
}

struct RunInputs {
  const InboxBenchOptions& options;
  const MessageIds& ids;
  const DeliveryPlan& plan;
  std::int64_t occurred_at;
};

// Runs docket's side and the provider's raw baseline (a session per thread on
// `raw_db`) side by side, adding each thread's counts to `docket_counts` /
// `raw_counts`.
SideBySideTimings run_sides(const RunInputs& in, const DocketInboxSide& docket,
                            const InboxBench& provider, const std::string& raw_db,
                            const std::string& consumer_id,
                            std::vector<DispatchCounts>& docket_counts,
                            std::vector<DispatchCounts>& raw_counts) {
  const std::size_t threads = in.options.threads;
  std::vector<DocketInboxSide::Session> docket_sessions;
  std::vector<std::unique_ptr<InboxSession>> raw_sessions;
  for (std::size_t t = 0; t < threads; ++t) {
    docket_sessions.push_back(docket.session());
    raw_sessions.push_back(provider.raw_session(raw_db, consumer_id, in.options.dedup));
  }
  std::vector<std::vector<BenchDelivery>> docket_buffers(threads);
  std::vector<std::vector<BenchDelivery>> raw_buffers(threads);
  const std::size_t batch = in.options.batch;
  return run_side_by_side(
      SideBySideShape{.items = in.plan.deliveries(),
                      .slice_items = slice_size(in.options),
                      .threads = threads,
                      .grain = batch},
      [&](std::size_t t, ItemRange items) {
        run_share(docket_sessions[t], in.ids, in.plan, in.occurred_at, batch, items,
                  docket_buffers[t], docket_counts[t]);
      },
      [&](std::size_t t, ItemRange items) {
        run_share(*raw_sessions[t], in.ids, in.plan, in.occurred_at, batch, items, raw_buffers[t],
                  raw_counts[t]);
      });
}

// Commits kCommitProbeCommits single rows through the provider's probe, a share per
// thread started together; returns commits per second.
std::optional<double> measure_commit_limit(const InboxBench& provider, const std::string& raw_db,
                                           std::size_t threads, const std::string& run_id) {
  std::vector<std::unique_ptr<CommitProbe>> probes;
  for (std::size_t t = 0; t < threads; ++t) {
    probes.push_back(provider.commit_probe(raw_db));
    if (probes.back() == nullptr) {
      return std::nullopt;
    }
  }
  const SideWork commit = [&](std::size_t t, ItemRange items) {
    std::string id;
    for (std::size_t i = items.begin; i < items.end; ++i) {
      id.assign(run_id).append(".").append(std::to_string(i));
      probes[t]->commit_one(id);
    }
  };
  // Both "sides" are the probe, on disjoint ids: the alternation machinery gives the
  // same threads and latch as the measured run.
  const std::size_t half = InboxBenchOptions::kCommitProbeCommits / 2;
  const SideBySideTimings timings = run_side_by_side(
      SideBySideShape{.items = half, .slice_items = half, .threads = threads, .grain = 1}, commit,
      [&](std::size_t t, ItemRange items) {
        commit(t, ItemRange{items.begin + half, items.end + half});
      });
  const double seconds = timings.seconds(kDocketSide) + timings.seconds(kRawSide);
  return seconds > 0 ? static_cast<double>(2 * half) / seconds : 0.0;
}

}  // namespace

InboxBenchReport run_inbox_bench(const InboxBenchOptions& options) {
  validate(options);
  InboxBenchReport report;
  report.options = options;
  report.store = parse_bench_store(options.store_url);
  report.consumer_id = new_run_id();

  const MessageIds ids(options.messages, options.ids);
  const DeliveryPlan plan(options.messages, options.duplicate_share);
  report.deliveries = plan.deliveries();
  report.duplicated = plan.duplicated();
  const std::int64_t occurred_at = kit::to_micros(SystemClock::instance().now());

  const InboxBench& provider = inbox_bench(report.store);
  report.store.provider->create_sides(report.store);
  auto store = provider.open_docket_store(report.store.docket_db, options.threads);
  store->migrate();
  provider.prepare(report.store);

  const DocketInboxSide docket(*store, report.store.docket_db, provider, report.consumer_id,
                               options.dedup);
  if (options.warmup > 0) {
    // Its own consumer keeps its rows out of the measured run's checks.
    const std::string warmup_consumer = report.consumer_id + ".warmup";
    const MessageIds warmup_ids(options.warmup, options.ids);
    const DeliveryPlan warmup_plan(options.warmup, options.duplicate_share);
    const DocketInboxSide warmup_docket(*store, report.store.docket_db, provider, warmup_consumer,
                                        options.dedup);
    std::vector<DispatchCounts> docket_warmup(options.threads);
    std::vector<DispatchCounts> raw_warmup(options.threads);
    run_sides(RunInputs{options, warmup_ids, warmup_plan, occurred_at}, warmup_docket, provider,
              report.store.raw_db, warmup_consumer, docket_warmup, raw_warmup);
  }
  const RunInputs inputs{options, ids, plan, occurred_at};
  std::vector<DispatchCounts> docket_counts(options.threads);
  std::vector<DispatchCounts> raw_counts(options.threads);
  const RoundTripCount trips(*report.store.provider);
  report.timings = run_sides(inputs, docket, provider, report.store.raw_db, report.consumer_id,
                             docket_counts, raw_counts);
  report.round_trips_per_delivery = trips.per_item(report.deliveries);
  report.peak_rss_bytes = peak_rss_bytes();
  report.commit_limit_rate =
      measure_commit_limit(provider, report.store.raw_db, options.threads, report.consumer_id);
  report.segments = report.timings.segments(segment_size(options));

  report.docket = side_report(docket_counts, provider, report.store.docket_db, report.consumer_id,
                              report.timings, kDocketSide);
  report.raw = side_report(raw_counts, provider, report.store.raw_db, report.consumer_id,
                           report.timings, kRawSide);
  report.ratio = report.raw.rate > 0 ? report.docket.rate / report.raw.rate : 0.0;
  if (report.commit_limit_rate && *report.commit_limit_rate > 0) {
    report.commit_limit_ratio = report.docket.rate / *report.commit_limit_rate;
  }
  check("docket", report.docket, options.messages, report.deliveries, report.problems);
  check("raw baseline", report.raw, options.messages, report.deliveries, report.problems);
  return report;
}

}  // namespace docket::bench
