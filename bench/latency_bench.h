// `docket bench latency`: how long a message takes from its producer's commit to the
// commit of the handler that consumed it, with wake-ups (the relay woken by the
// commit: docket/core/wake_signal.h) against polling at the default interval, and what
// an idle relay costs its store.
//
// The end-to-end phase (relay_latency.h) runs `rounds` times in each mode, the modes
// interleaved (woken, polled, woken, polled, ...) so that a slow minute of the machine
// reaches both, each round `messages / rounds` messages staged at `rate` a second
// through the transport (in-process when no URL is given) into the inbox on the same
// store:
//   woken   RelaySettings' defaults: idle waits of 200 ms doubling to 1 s, ended by a
//           commit where the store wakes relays (memory, SQLite, PostgreSQL); on the
//           others (DynamoDB, Firestore) the idle backoff alone;
//   polled  wake-ups off, every idle wait 200 ms: polling at the default interval.
// The figures are over all rounds of a mode: p50, p99, p99.9 and max, and the ratio
// polled / woken of p50 and p99. Then each mode's relay runs alone with nothing staged,
// first until its idle waits have lengthened to their longest, then `idle_seconds`:
// its claims a second then are the store queries an idle service sends.
//
// Thread-safety: run_latency_bench() runs one benchmark on the calling thread.
#ifndef DOCKET_BENCH_LATENCY_BENCH_H_
#define DOCKET_BENCH_LATENCY_BENCH_H_

#include <cstddef>
#include <string>
#include <vector>

#include "bench_store.h"
#include "relay_latency.h"

namespace docket::bench {

struct LatencyBenchOptions {
  static constexpr std::size_t kMaxMessages = 1'000'000;
  static constexpr std::size_t kMaxRate = 100'000;
  static constexpr std::size_t kMaxRounds = 100;
  static constexpr std::size_t kMaxIdleSeconds = 3'600;

  std::string store_url;
  std::string transport_url;     // empty: an in-process transport
  std::size_t messages = 2'000;  // a mode's, over its rounds
  std::size_t rate = 200;        // staged per second
  std::size_t rounds = 2;
  std::size_t idle_seconds = 3;
};

struct LatencyMode {
  std::string name;  // "woken", "polled"
  LatencyReport latency;
  double idle_queries_per_second = 0;
};

struct LatencyBenchReport {
  LatencyBenchOptions options;
  BenchStore store;
  std::string transport;  // its describe()
  std::string run_id;
  // Whether the store wakes relays at a commit (OutboxStore::staged_signal): where it
  // does not (DynamoDB, Firestore), the woken mode is the idle backoff alone, its waits
  // 200 ms doubling to 1 s, ended by nothing but their own end.
  bool store_wakes = false;
  LatencyMode woken;
  LatencyMode polled;
  std::vector<std::string> problems;  // messages not handled, ...
  bool ok() const { return problems.empty(); }
};

// Throws InvalidInputError for an option out of range (naming it), what the store and
// transport throw when they cannot be opened, and what the phase throws.
LatencyBenchReport run_latency_bench(LatencyBenchOptions options);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_LATENCY_BENCH_H_
