#include "events_bench.h"

#include <memory>
#include <utility>

#include "bench_registry.h"
#include "docket_event_side.h"
#include "option_checks.h"
#include "round_trip_count.h"

namespace docket::bench {
namespace {

constexpr std::size_t kMaxEventsPerAppend = 1'000;

void validate(const EventsBenchOptions& o) {
  require_option(o.appends > 0,
                 "--appends is 0; pass how many appends each case runs (at least 1)");
  require_option(!o.events_per_append.empty(), "no events per append given; pass e.g. 1 or 10");
  for (const std::size_t k : o.events_per_append) {
    require_count("--events-per-append", k, kMaxEventsPerAppend);
  }
  require_option(o.streams > 0, "--streams is 0; pass how many streams the many-streams cases use");
  require_count("--threads", o.threads, kMaxBenchThreads);
  require_option(o.loads > 0, "--loads is 0; pass how many whole-stream loads to run (at least 1)");
  require_count("--stream-length", o.stream_length, kMaxEventsPerAppend);
}

// An append of more events than `store` takes in one atomic commit would fail mid-run:
// refused before any is made, naming the store's limit, rather than run a smaller
// append than asked (Cosmos DB: 99 events, one transactional batch of 100 operations, one
// of them the read proving the version; the default --stream-length is 100).
void refuse_appends_over_commit(const EventsBenchOptions& o, const EventStore& store) {
  const std::size_t most = store.capabilities().max_writes_per_commit;
  if (most == 0) {
    return;
  }
  const auto refuse_over = [&](const std::string& option, std::size_t events) {
    require_option(events <= most, option + " " + std::to_string(events) +
                                       " is more events than one append holds on the " +
                                       std::string(store.provider_name()) + " store (at most " +
                                       std::to_string(most) +
                                       ": one append is one atomic commit there); pass " + option +
                                       " " + std::to_string(most) + " or less");
  };
  refuse_over("--stream-length", o.stream_length);
  for (const std::size_t k : o.events_per_append) {
    refuse_over("--events-per-append", k);
  }
}

// Both sides' sessions, one per thread each, and what every case shares.
struct EventSides {
  const EventsBenchOptions& options;
  const BenchStore& store;
  const EventsBench& provider;
  std::string run_id;
  std::vector<std::string> stream_names;
  std::array<std::vector<std::unique_ptr<EventSession>>, 2> sessions;  // by Side

  SideBySideShape shape(std::size_t items) const {
    const std::size_t threads = options.threads;
    return SideBySideShape{
        .items = items,
        .slice_items = (EventsBenchOptions::kSliceItems + threads - 1) / threads * threads,
        .threads = threads};
  }
};

// `appends` appends of `k` events; append i to stream i mod `streams`.
AppendCaseReport run_append_case(EventSides& sides, std::string name, std::size_t streams,
                                 std::size_t k) {
  const std::size_t threads = sides.options.threads;
  AppendCaseReport report;
  report.name = std::move(name);
  report.streams = streams;
  report.events_per_append = k;
  report.appends = sides.options.appends;
  const std::string type = sides.run_id + "." + report.name;
  const MessageIds raw_ids(report.appends * k, IdOrder::kTimeOrdered);
  std::array<StreamVersions, 2> versions{StreamVersions(streams), StreamVersions(streams)};
  std::array<std::vector<AppendCounts>, 2> counts{std::vector<AppendCounts>(threads),
                                                  std::vector<AppendCounts>(threads)};
  auto work = [&](Side side) {
    return [&, side](std::size_t t, ItemRange items) {
      for (std::size_t i = items.begin; i < items.end; ++i) {
        const std::size_t s = i % streams;
        sides.sessions[side][t]->append(
            AppendCall{type, sides.stream_names[s], s, k, &raw_ids, i * k}, versions[side],
            counts[side][t]);
      }
    };
  };
  const RoundTripCount trips(*sides.store.provider);
  report.timings = run_side_by_side(sides.shape(report.appends), work(kDocketSide), work(kRawSide));
  report.round_trips_per_append = trips.per_item(report.appends);
  for (const Side side : {kDocketSide, kRawSide}) {
    AppendSideReport& r = report.sides[side];
    for (const AppendCounts& c : counts[side]) {
      r.counts += c;
    }
    r.stored = sides.provider.stored_streams(
        side == kDocketSide ? sides.store.docket_db : sides.store.raw_db, type);
    r.seconds = report.timings.seconds(side);
    r.rate = report.timings.rate(side);
  }
  return report;
}

// Writes the load streams on each side (one append of stream_length events each, not
// measured), then `loads` loads, load i of stream i mod streams.
LoadCaseReport run_load_case(EventSides& sides) {
  const EventsBenchOptions& o = sides.options;
  LoadCaseReport report;
  report.streams = std::min(o.loads, EventsBenchOptions::kMaxLoadStreams);
  report.stream_length = o.stream_length;
  report.loads = o.loads;
  const std::string type = sides.run_id + ".load";
  const MessageIds raw_ids(report.streams * o.stream_length, IdOrder::kTimeOrdered);
  for (const Side side : {kDocketSide, kRawSide}) {
    StreamVersions versions(report.streams);
    AppendCounts written;
    for (std::size_t s = 0; s < report.streams; ++s) {
      sides.sessions[side][0]->append(AppendCall{type, sides.stream_names[s], s, o.stream_length,
                                                 &raw_ids, s * o.stream_length},
                                      versions, written);
    }
  }
  std::array<std::vector<std::uint64_t>, 2> loaded{std::vector<std::uint64_t>(o.threads),
                                                   std::vector<std::uint64_t>(o.threads)};
  auto work = [&](Side side) {
    return [&, side](std::size_t t, ItemRange items) {
      for (std::size_t i = items.begin; i < items.end; ++i) {
        loaded[side][t] +=
            sides.sessions[side][t]->load(type, sides.stream_names[i % report.streams]);
      }
    };
  };
  report.timings = run_side_by_side(sides.shape(o.loads), work(kDocketSide), work(kRawSide));
  for (const Side side : {kDocketSide, kRawSide}) {
    for (const std::uint64_t events : loaded[side]) {
      report.events[side] += events;
    }
  }
  return report;
}

}  // namespace

EventsBenchReport run_events_bench(const EventsBenchOptions& options) {
  validate(options);
  EventsBenchReport report;
  report.options = options;
  report.store = parse_bench_store(options.store_url);
  report.run_id = new_run_id();

  const EventsBench& provider = events_bench(report.store);
  report.store.provider->create_sides(report.store);
  auto store = provider.open_docket_store(report.store.docket_db, options.threads);
  refuse_appends_over_commit(options, *store);
  // The raw baseline's database gets docket's schema (set-up, not measured).
  provider.open_docket_store(report.store.raw_db, 1);

  EventSides sides{
      .options = options,
      .store = report.store,
      .provider = provider,
      .run_id = report.run_id,
      .stream_names = stream_ids(std::max(options.streams, EventsBenchOptions::kMaxLoadStreams)),
      .sessions = {}};
  for (std::size_t t = 0; t < options.threads; ++t) {
    sides.sessions[kDocketSide].push_back(std::make_unique<DocketEventSession>(*store));
    sides.sessions[kRawSide].push_back(provider.raw_session(report.store.raw_db));
  }
  for (const std::size_t k : options.events_per_append) {
    report.cases.push_back(run_append_case(sides, "one-" + std::to_string(k), 1, k));
  }
  for (const std::size_t k : options.events_per_append) {
    report.cases.push_back(run_append_case(sides, "many-" + std::to_string(k), options.streams, k));
  }
  report.load = run_load_case(sides);
  check_events_report(report);
  return report;
}

}  // namespace docket::bench
