// `docket bench relay`: docket's confirmed publishes a second through a broker beside the
// raw limit of the broker, in one run, and the end-to-end time through it.
//
// Throughput, for each batch size b of `batches`:
//   docket: `messages` messages staged in the outbox on the store beforehand (set-up,
//           in transactions of kFillMessages, not measured), then one Relay over
//           open_transport(transport_url) with publish_batch_size b publishing them all
//           (claim max(kClaimBatches * b, 100) rows, Transport::publish_batch of b with
//           confirms, in order, mark the claim's rows done), pipelined as run() relays
//           (Relay::drain: the store's work overlaps the broker's): measured;
//   raw:    the same number of messages, built as the relay builds them (same body,
//           same headers, same destination), published through the transport's client
//           library directly (bench_transport.h): b sent, then their b confirms awaited.
// Both sides alternate in slices of about kSliceMessages (whole claims, at least
// kSliceClaims of them, at most `messages`), as every
// benchmark does (side_by_side.h). Rates are confirmed messages per second. Both
// publish to a destination of the run's own ("docket-bench.<run id>.throughput"), whose consumer
// group queue is declared (Transport::subscribe) before anything is published, purged
// after each batch size and deleted when the run ends.
//
// Round trips per message: to the store, docket's, where the provider counts them
// (round_trip_count.h); to the broker, the waits for confirms (a publish_batch call of
// the relay, or a raw batch): 1/b on both sides.
//
// End to end (relay_latency.h): `latency_messages` messages staged at `latency_rate` a
// second, relayed and handled by a ConsumerRunner into an InboxDispatcher on the same
// store; p50, p99 and max of producer commit -> handler commit. 0 messages: skipped.
//
// PostgreSQL: the run has schemas of its own (docket_bench_rl_<hex>_docket), dropped
// when it ends. SQLite: a file that already holds pending outbox rows is refused (the
// relay would publish them too).
//
// Afterwards: every staged message was published and marked done, the raw side had
// every message confirmed, the run's queue held both sides' messages, and every
// latency message was handled. A failed check is listed in problems.
//
// Thread-safety: run_relay_bench() may be called from one thread at a time per store.
#ifndef DOCKET_BENCH_RELAY_BENCH_H_
#define DOCKET_BENCH_RELAY_BENCH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench_store.h"
#include "relay_latency.h"
#include "side_by_side.h"

namespace docket::bench {

struct RelayBenchOptions {
  static constexpr std::size_t kSliceMessages = 200;  // per slice, rounded up to a claim
  static constexpr std::size_t kSliceClaims = 5;      // ... and at least this many claims
  static constexpr std::size_t kClaimBatches = 10;    // publishes' worth of rows a claim
  static constexpr std::size_t kFillMessages = 500;   // staged per set-up transaction
  static constexpr std::size_t kMaxMessages = 1'000'000;
  static constexpr std::size_t kMaxBatch = 10'000;
  static constexpr std::size_t kMaxBatches = 8;
  static constexpr std::size_t kMaxLatencyRate = 100'000;
  static constexpr std::size_t kMaxPollMs = 1'000;

  std::string store_url;
  std::string transport_url;     // must name the exchange (or whatever its transport needs)
  std::size_t messages = 2'000;  // per batch size, per side
  std::vector<std::size_t> batches{1, 100};
  std::size_t latency_messages = 1'000;  // 0: no end-to-end phase
  std::size_t latency_rate = 200;        // staged per second in the end-to-end phase
  std::size_t poll_ms = 5;               // the end-to-end relay's and consumer's idle wait
};

struct RelayBatchReport {
  std::size_t batch = 0;
  SideBySideTimings timings;
  std::uint64_t published = 0;  // docket: confirmed and marked done by the relay
  std::uint64_t passes = 0;     // docket: relay passes (a publish_batch, a confirm wait each)
  std::uint64_t raw_confirmed = 0;
  std::uint64_t raw_confirm_waits = 0;
  std::uint64_t queued = 0;  // in the run's queue after both sides ran
  // docket's store round trips per message, where the provider counts them.
  std::optional<double> store_round_trips_per_message;
  // Confirm waits per message, by Side.
  std::array<double, 2> broker_round_trips_per_message{};
};

struct RelayBenchReport {
  RelayBenchOptions options;
  BenchStore store;
  std::string transport;  // the transport's own description, password masked
  std::string run_id;
  std::string destination;  // the throughput destination
  std::string group;
  std::vector<RelayBatchReport> runs;
  std::int64_t done_rows = 0;  // the run's outbox rows marked done, read after the run
  std::optional<LatencyReport> latency;
  std::vector<std::string> problems;

  bool ok() const noexcept { return problems.empty(); }
};

// Throws InvalidInputError for unusable options (before anything is opened),
// ConfigurationError for a store or transport URL the bench cannot run on or a SQLite
// file with pending outbox rows, and InfrastructureError (TransportError, a broker's
// error) naming the broker when it is down or refuses the login, or a side fails.
RelayBenchReport run_relay_bench(RelayBenchOptions options);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_RELAY_BENCH_H_
