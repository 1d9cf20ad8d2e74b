#include "claim_bench.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "bench_registry.h"
#include "delivery_plan.h"
#include "docket/inbox/claim_inbox_store.h"
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
  require_count("--batch", o.batch, kMaxClaimBatch);
  require_share("--duplicates", o.duplicate_share);
}

// Whole batches for every thread.
std::size_t slice_size(std::size_t threads, std::size_t batch) {
  const std::size_t unit = threads * batch;
  return (ClaimBenchOptions::kSliceMessages + unit - 1) / unit * unit;
}

// The message index of every delivery: the warm-up's plan, then the measured plan's,
// its messages numbered after the warm-up's.
struct Deliveries {
  std::vector<std::uint32_t> messages;
  std::size_t warmup = 0;      // the first `warmup` deliveries are the warm-up's
  std::size_t duplicated = 0;  // of the measured
};

Deliveries plan_deliveries(const ClaimBenchOptions& o) {
  Deliveries deliveries;
  const DeliveryPlan warmup(o.warmup, o.duplicate_share);
  const DeliveryPlan measured(o.messages, o.duplicate_share);
  deliveries.messages.reserve(warmup.deliveries() + measured.deliveries());
  for (std::size_t d = 0; d < warmup.deliveries(); ++d) {
    deliveries.messages.push_back(warmup.message_of(d));
  }
  for (std::size_t d = 0; d < measured.deliveries(); ++d) {
    deliveries.messages.push_back(static_cast<std::uint32_t>(o.warmup + measured.message_of(d)));
  }
  deliveries.warmup = warmup.deliveries();
  deliveries.duplicated = measured.duplicated();
  return deliveries;
}

ClaimSideReport side_report(const std::vector<ClaimCycleCounts>& per_thread,
                            const ClaimBench& provider, const std::string& db,
                            std::string_view run_id, const SideBySideTimings& timings, Side side,
                            std::size_t measured_messages) {
  ClaimSideReport report;
  for (const ClaimCycleCounts& counts : per_thread) {
    report.counts += counts;
  }
  report.rows = provider.count_rows(db, run_id);
  report.seconds = timings.seconds(side);
  report.rate = timings.rate(side);
  report.handled_rate =
      report.seconds > 0 ? static_cast<double>(measured_messages) / report.seconds : 0.0;
  return report;
}

void check(std::string_view side, const ClaimSideReport& report, std::size_t messages,
           std::size_t deliveries, bool effect, std::vector<std::string>& problems) {
  const std::string name(side);
  const std::string of_messages = " of " + std::to_string(messages) + " messages";
  auto expect = [&](std::uint64_t got, std::uint64_t want, std::string_view what) {
    if (got != want) {
      problems.push_back(name + ": " + std::string(what) + " " + std::to_string(got) + of_messages);
    }
  };
  expect(report.counts.claimed, messages, "claimed");
  expect(report.counts.processed, messages, "marked processed");
  expect(report.counts.skipped, deliveries - messages, "redeliveries skipped");
  expect(static_cast<std::uint64_t>(report.rows.entries), messages, "entries stored for");
  expect(static_cast<std::uint64_t>(report.rows.processed), messages, "entries processed for");
  const std::uint64_t effects = effect ? messages : 0;
  expect(report.counts.effects, effects, "handler effects written for");
  expect(static_cast<std::uint64_t>(report.rows.effects), effects, "effects stored for");
  expect(static_cast<std::uint64_t>(report.rows.effect_messages), effects,
         "messages with an effect stored");
}

// The sessions of both sides and their effect writers, a set per thread, each thread
// claiming as its own owner.
struct Sessions {
  std::vector<std::unique_ptr<ClaimSession>> docket;
  std::vector<std::unique_ptr<ClaimSession>> raw;
  std::vector<std::unique_ptr<ClaimEffectWriter>> docket_effects;
  std::vector<std::unique_ptr<ClaimEffectWriter>> raw_effects;
};

Sessions open_sessions(ClaimInboxStore& store, const ClaimBench& provider,
                       const BenchStore& bench_store, const std::string& run_id,
                       const ClaimBenchOptions& options) {
  Sessions sessions;
  for (std::size_t t = 0; t < options.threads; ++t) {
    const std::string owner = run_id + "/" + std::to_string(t);
    sessions.docket.push_back(std::make_unique<DocketClaimSession>(store, run_id, owner));
    sessions.raw.push_back(provider.raw_session(bench_store.raw_db, run_id, owner));
    sessions.docket_effects.push_back(
        options.effect ? provider.effect_writer(bench_store.docket_db, run_id) : nullptr);
    sessions.raw_effects.push_back(
        options.effect ? provider.effect_writer(bench_store.raw_db, run_id) : nullptr);
  }
  return sessions;
}

SideWork cycles(std::vector<std::unique_ptr<ClaimSession>>& sessions,
                std::vector<std::unique_ptr<ClaimEffectWriter>>& effects, const MessageIds& ids,
                const Deliveries& deliveries, std::size_t batch,
                std::vector<ClaimCycleCounts>& counts) {
  return [&sessions, &effects, &ids, &deliveries, batch, &counts](std::size_t t, ItemRange items) {
    if (batch == 1) {
      for (std::size_t d = items.begin; d < items.end; ++d) {
        sessions[t]->cycle(ids.id(deliveries.messages[d]), effects[t].get(), counts[t]);
      }
      return;
    }
    std::vector<std::string_view> received;
    received.reserve(batch);
    for (std::size_t d = items.begin; d < items.end;) {
      received.clear();
      for (; d < items.end && received.size() < batch; ++d) {
        const std::string_view id = ids.id(deliveries.messages[d]);
        if (std::find(received.begin(), received.end(), id) != received.end()) {
          break;  // a redelivery of a message this batch holds starts the next batch
        }
        received.push_back(id);
      }
      sessions[t]->cycle_batch(received, effects[t].get(), counts[t]);
    }
  };
}

// The round trips of the claim cycles, as the provider counted them, and one a written
// effect (claim_effect.h: writers are not counted by the provider), per delivery.
std::optional<std::array<double, 2>> round_trips(const RoundTripCount& trips,
                                                 const ClaimBenchReport& report) {
  auto per = trips.per_item(report.total_deliveries);
  if (per) {
    const auto effects_per = [&](const ClaimSideReport& side) {
      return static_cast<double>(side.counts.effects) /
             static_cast<double>(report.total_deliveries);
    };
    (*per)[kDocketSide] += effects_per(report.docket);
    (*per)[kRawSide] += effects_per(report.raw);
  }
  return per;
}

}  // namespace

ClaimBenchReport run_claim_bench(const ClaimBenchOptions& options) {
  validate(options);
  ClaimBenchReport report;
  report.options = options;
  report.store = parse_bench_store(options.store_url);
  report.run_id = new_run_id();
  const MessageIds ids(options.total_messages(), IdOrder::kTimeOrdered);
  const Deliveries deliveries = plan_deliveries(options);
  report.total_deliveries = deliveries.messages.size();
  report.deliveries = report.total_deliveries - deliveries.warmup;
  report.duplicate_deliveries = deliveries.duplicated;

  const ClaimBench& provider = claim_bench(report.store);
  report.store.provider->create_sides(report.store);
  auto store = provider.open_docket_store(report.store.docket_db, options.threads);
  store->migrate();
  provider.prepare(report.store);

  Sessions sessions = open_sessions(*store, provider, report.store, report.run_id, options);
  std::vector<ClaimCycleCounts> docket_counts(options.threads);
  std::vector<ClaimCycleCounts> raw_counts(options.threads);
  const RoundTripCount trips(*report.store.provider);
  report.timings = run_side_by_side(
      SideBySideShape{.items = report.total_deliveries,
                      .warmup_items = deliveries.warmup,
                      .slice_items = slice_size(options.threads, options.batch),
                      .threads = options.threads,
                      .grain = options.batch},
      cycles(sessions.docket, sessions.docket_effects, ids, deliveries, options.batch,
             docket_counts),
      cycles(sessions.raw, sessions.raw_effects, ids, deliveries, options.batch, raw_counts));

  report.docket = side_report(docket_counts, provider, report.store.docket_db, report.run_id,
                              report.timings, kDocketSide, options.messages);
  report.raw = side_report(raw_counts, provider, report.store.raw_db, report.run_id, report.timings,
                           kRawSide, options.messages);
  report.round_trips_per_message = round_trips(trips, report);
  report.ratio = report.raw.rate > 0 ? report.docket.rate / report.raw.rate : 0.0;
  check("docket", report.docket, options.total_messages(), report.total_deliveries, options.effect,
        report.problems);
  check("raw baseline", report.raw, options.total_messages(), report.total_deliveries,
        options.effect, report.problems);
  return report;
}

}  // namespace docket::bench
