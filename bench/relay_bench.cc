#include "relay_bench.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "bench_registry.h"
#include "bench_transport.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/transports/open_transport.h"
#include "option_checks.h"
#include "outbox_checks.h"
#include "outbox_workload.h"
#include "round_trip_count.h"
#include "run_queues.h"
#include "run_schemas.h"

namespace docket::bench {
namespace {

constexpr std::string_view kGroup = "bench";

void validate(const RelayBenchOptions& o) {
  // An empty URL is a URL docket cannot use, refused like an empty --store (exit status
  // 1), not an option value out of range.
  if (o.transport_url.empty()) {
    throw InvalidInputError(
        "--transport is empty; pass the broker's URL, e.g. "
        "amqp://user:password@127.0.0.1:5672/vhost?exchange=docket-bench");
  }
  require_count("--messages", o.messages, RelayBenchOptions::kMaxMessages);
  require_option(!o.batches.empty() && o.batches.size() <= RelayBenchOptions::kMaxBatches,
                 "--batch has " + std::to_string(o.batches.size()) + " sizes; pass 1 to " +
                     std::to_string(RelayBenchOptions::kMaxBatches) + " batch sizes, e.g. 1 100");
  for (const std::size_t b : o.batches) {
    require_option(b >= 1 && b <= RelayBenchOptions::kMaxBatch,
                   "--batch has " + std::to_string(b) + "; pass batch sizes from 1 to " +
                       std::to_string(RelayBenchOptions::kMaxBatch));
  }
  require_option(o.latency_messages <= RelayBenchOptions::kMaxMessages,
                 "--latency-messages is " + std::to_string(o.latency_messages) + "; pass 0 to " +
                     std::to_string(RelayBenchOptions::kMaxMessages) + " (0 skips the phase)");
  require_count("--latency-rate", o.latency_rate, RelayBenchOptions::kMaxLatencyRate);
  require_count("--poll-ms", o.poll_ms, RelayBenchOptions::kMaxPollMs);
}

OutboxMessage bench_message(const std::string& run_id, const std::string& destination) {
  return OutboxMessage{.event_type = std::string(kOutboxEventType),
                       .payload = std::string(kOutboxPayload),
                       .source = run_id,
                       .destination = destination};
}

// What docket's relay hands the transport for a row staged as bench_message(): the raw
// side's messages, built alike so that both publish the same body and headers.
std::vector<TransportMessage> raw_messages(std::size_t count, const std::string& run_id,
                                           const std::string& destination) {
  const OutboxMessage staged = bench_message(run_id, destination);
  std::vector<TransportMessage> messages;
  messages.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const OutboxRecord record{.id = Uuid::v7().to_string(),
                              .tenant = std::string(kOutboxTenant),
                              .event_type = staged.event_type,
                              .payload = staged.payload,
                              .occurred_at = SystemClock::instance().now(),
                              .source = staged.source,
                              .destination = destination};
    messages.push_back(TransportMessage{.tenant = record.tenant,
                                        .envelope = to_envelope(record),
                                        .destination = record.destination});
  }
  return messages;
}

// The rows a relay pass claims for publishes of `batch`: kClaimBatches publishes' worth,
// and at least RelaySettings' default, so that the store's two commits a claim (claim,
// mark) are paid once for many broker round trips.
std::size_t claim_rows(std::size_t batch) {
  return std::max(batch * RelayBenchOptions::kClaimBatches, RelaySettings{}.batch_size);
}

// Publishes of `batch` messages, each awaited, as the raw side's.
RelayOptions relay_options(std::size_t batch) {
  RelaySettings settings;
  settings.batch_size = claim_rows(batch);
  settings.publish_batch_size = batch;
  return RelayOptions(settings);
}

struct RelayRun {
  const RelayBenchOptions& options;
  RelayBenchReport& report;
  OutboxStore& store;
  Transport& transport;
  const TransportBench& raw;
  RawPublishSession& raw_session;
};

// Stages `count` messages of the run (set-up); returns their ids.
std::vector<std::string> stage_messages(const RelayRun& run, std::size_t count) {
  const Outbox outbox(run.store);
  const OutboxMessage message = bench_message(run.report.run_id, run.report.destination);
  std::vector<std::string> ids;
  ids.reserve(count);
  for (std::size_t first = 0; first < count; first += RelayBenchOptions::kFillMessages) {
    auto unit = run.store.begin();
    for (std::size_t i = first; i < std::min(count, first + RelayBenchOptions::kFillMessages);
         ++i) {
      ids.push_back(outbox.stage(unit->handler_transaction(), message).to_string());
    }
    unit->commit();
  }
  return ids;
}

// A relay pass that did not publish all it claimed: the error the relay recorded on the
// first such row, which names the broker and what to do.
[[noreturn]] void relay_failed(const RelayRun& run, const std::vector<std::string>& ids,
                               const RelayPass& pass) {
  for (const std::string& id : ids) {
    const std::optional<OutboxRecord> row = run.store.find(id);
    if (row && row->status != OutboxStatus::kDone && row->last_error) {
      throw InfrastructureError("bench relay: the relay could not publish message '" + id +
                                "' through " + run.transport.describe() + ": " + *row->last_error);
    }
  }
  throw InfrastructureError("bench relay: a relay pass claimed " + std::to_string(pass.claimed) +
                            " messages and published " + std::to_string(pass.published) +
                            " through " + run.transport.describe() +
                            ", with no error recorded on their rows");
}

RelayBatchReport run_batch(const RelayRun& run, std::size_t batch) {
  const std::size_t messages = run.options.messages;
  const std::vector<std::string> ids = stage_messages(run, messages);
  Relay relay(run.store, run.transport, relay_options(batch));
  RelayBatchReport report;
  report.batch = batch;
  // The relay's pipeline (Relay::drain, as run() relays): the store's claims and marks
  // overlap the broker's confirms, and the slice ends with every result recorded.
  const SideWork docket_work = [&](std::size_t, ItemRange items) {
    const std::size_t count = items.end - items.begin;
    const RelayPass pass = relay.drain(count);
    report.passes += pass.batches;
    report.published += pass.published;
    if (pass.published != count) {
      relay_failed(run, ids, pass);
    }
  };
  const SideWork raw_work = [&](std::size_t, ItemRange items) {
    run.raw_session.publish(items, batch);
  };
  const std::uint64_t raw_confirmed = run.raw_session.confirmed();
  const std::uint64_t raw_waits = run.raw_session.confirm_waits();
  const RoundTripCount trips(*run.report.store.provider);
  // Whole claims, and at least kSliceClaims of them, so that a slice's first claim and
  // last mark (which nothing can overlap) weigh little beside the pipelined ones.
  const std::size_t claim = claim_rows(batch);
  const std::size_t slice =
      std::min(messages, std::max((RelayBenchOptions::kSliceMessages + claim - 1) / claim,
                                  RelayBenchOptions::kSliceClaims) *
                             claim);
  report.timings = run_side_by_side(
      SideBySideShape{.items = messages, .slice_items = slice, .threads = 1, .grain = batch},
      docket_work, raw_work);
  if (const auto store_trips = trips.per_item(messages)) {
    report.store_round_trips_per_message = (*store_trips)[kDocketSide];
  }
  report.raw_confirmed = run.raw_session.confirmed() - raw_confirmed;
  report.raw_confirm_waits = run.raw_session.confirm_waits() - raw_waits;
  const auto per_message = [messages](std::uint64_t count) {
    return static_cast<double>(count) / static_cast<double>(messages);
  };
  report.broker_round_trips_per_message[kDocketSide] = per_message(report.passes);
  report.broker_round_trips_per_message[kRawSide] = per_message(report.raw_confirm_waits);
  report.queued = run.raw.queued(run.options.transport_url, run.report.destination, kGroup);
  run.raw.purge(run.options.transport_url, run.report.destination, kGroup);  // set-up
  return report;
}

void check_relay_report(RelayBenchReport& report) {
  auto problem = [&report](const std::string& text) { report.problems.push_back(text); };
  const std::uint64_t messages = report.options.messages;
  std::int64_t expected_done = 0;
  for (const RelayBatchReport& run : report.runs) {
    const std::string at = "batch " + std::to_string(run.batch) + ": ";
    if (run.published != messages) {
      problem(at + "docket's relay published " + std::to_string(run.published) + " of " +
              std::to_string(messages) + " staged messages");
    }
    if (run.raw_confirmed != messages) {
      problem(at + "the raw side had " + std::to_string(run.raw_confirmed) + " of " +
              std::to_string(messages) + " messages confirmed");
    }
    if (run.queued != 2 * messages) {
      problem(at + "the run's queue held " + std::to_string(run.queued) + " messages, not the " +
              std::to_string(2 * messages) + " both sides published");
    }
    expected_done += static_cast<std::int64_t>(messages);
  }
  if (report.latency) {
    const LatencyReport& latency = *report.latency;
    if (latency.handled != report.options.latency_messages) {
      problem("end to end: " + std::to_string(latency.handled) + " of " +
              std::to_string(report.options.latency_messages) +
              " messages reached the handler within " + std::to_string(kLatencyGrace.count()) +
              " s of the last commit");
    }
    expected_done += static_cast<std::int64_t>(latency.staged);
  }
  if (report.done_rows != expected_done) {
    problem("the store holds " + std::to_string(report.done_rows) +
            " of the run's messages marked done, not the " + std::to_string(expected_done) +
            " it staged");
  }
}

}  // namespace

RelayBenchReport run_relay_bench(RelayBenchOptions options) {
  validate(options);
  RelayBenchReport report;
  report.options = options;
  report.run_id = new_run_id();
  const std::string hex = report.run_id.substr(report.run_id.size() - 8);
  report.store = parse_bench_store(options.store_url, "docket_bench_rl_" + hex + "_docket",
                                   "docket_bench_rl_" + hex + "_raw");
  const OutboxBench& outbox_side = outbox_bench(report.store, "relay");
  const InboxBench* inbox_side =
      options.latency_messages > 0 ? &inbox_bench(report.store, "relay") : nullptr;
  const TransportBench& raw = transport_bench(options.transport_url);
  const std::unique_ptr<Transport> transport = open_transport(options.transport_url);
  report.transport = transport->describe();
  // Under "docket-bench.", as the demo's and chaos's destinations are under theirs, so
  // that a broker routing by prefix (a NATS stream's subjects) takes them all at once.
  report.destination = "docket-bench." + report.run_id + ".throughput";
  report.group = std::string(kGroup);
  const std::string latency_destination = "docket-bench." + report.run_id + ".latency";

  // The broker first: one that is down or refuses the login is found before any store
  // is written.
  RunQueues queues(raw, options.transport_url, std::string(kGroup));
  queues.declare(*transport, report.destination);
  if (inbox_side != nullptr) {
    queues.declare(*transport, latency_destination);
  }
  const std::vector<TransportMessage> messages =
      raw_messages(options.messages, report.run_id, report.destination);
  const std::unique_ptr<RawPublishSession> raw_session =
      raw.raw_session(options.transport_url, messages);

  const RunSchemas schemas(report.store);
  report.store.provider->create_sides(report.store);
  // Connections: the producer's, the relay's, and one spare (a unit of work held while
  // the relay marks).
  const std::unique_ptr<OutboxStore> store =
      outbox_side.open_docket_store(report.store.docket_db, 3);
  store->migrate();
  refuse_pending_rows(outbox_side, report.store.docket_db);

  const RelayRun run{.options = options,
                     .report = report,
                     .store = *store,
                     .transport = *transport,
                     .raw = raw,
                     .raw_session = *raw_session};
  for (const std::size_t batch : options.batches) {
    report.runs.push_back(run_batch(run, batch));
  }
  if (inbox_side != nullptr) {
    const std::unique_ptr<InboxStore> inbox =
        inbox_side->open_docket_store(report.store.docket_db, 2);
    inbox->migrate();
    report.latency =
        measure_end_to_end(*store, *inbox, *transport,
                           LatencyOptions{.messages = options.latency_messages,
                                          .rate = options.latency_rate,
                                          .poll = std::chrono::milliseconds(options.poll_ms),
                                          .max_poll = std::chrono::milliseconds(options.poll_ms),
                                          .destination = latency_destination,
                                          .group = std::string(kGroup),
                                          .source = report.run_id,
                                          .consumer_id = report.run_id});
  }
  report.done_rows = outbox_side.run_rows(report.store.docket_db, report.run_id).done;
  check_relay_report(report);
  return report;
}

}  // namespace docket::bench
