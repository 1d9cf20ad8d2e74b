// The end-to-end phase of `docket bench relay`: how long a message takes from its
// producer's commit to the commit of the consumer's inbox, through a broker.
//
// Three parts run at once in one process, as an application runs them: a producer (the
// calling thread) staging `messages` messages at a steady `rate`, each in a transaction
// of its own, and noting when its commit returned; a Relay (its own thread, batch 100,
// idle waits `poll` to `max_poll`, woken by commits when `wake_ups`) publishing them through the
// transport; and a ConsumerRunner (its own thread) handing each delivery of the run's consumer
// group to an InboxDispatcher on the same store, whose commit callback
// (ConsumerRunnerSettings::on_committed) records now minus the producer's commit time. A message
// carries its number in its payload; the times are the steady clock's, read by one process, so no
// clock skew enters.
//
// The phase ends when every message was handled, or at a deadline (the producing time
// plus kLatencyGrace): what did not arrive is reported, never waited for.
//
// Thread-safety: measure_end_to_end() may be called from one thread at a time per
// destination; it joins its threads before returning (also when it throws).
#ifndef DOCKET_BENCH_RELAY_LATENCY_H_
#define DOCKET_BENCH_RELAY_LATENCY_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "docket/transports/transport.h"

namespace docket::bench {

inline constexpr std::chrono::seconds kLatencyGrace{30};

struct LatencyOptions {
  std::size_t messages = 0;
  std::size_t rate = 200;  // staged per second
  // The relay's idle waits (RelaySettings): from `poll` doubling to `max_poll`, ended
  // by a commit when `wake_ups`; also the consumer's wait for a delivery.
  std::chrono::milliseconds poll{5};
  std::chrono::milliseconds max_poll{5};
  bool wake_ups = true;
  std::string destination{};  // the run's own, its group's queue declared
  std::string group{};
  std::string source{};       // the run id every message carries
  std::string consumer_id{};  // the inbox consumer
};

struct LatencyReport {
  std::size_t staged = 0;
  std::uint64_t handled = 0;  // committed by the inbox (kProcessed), each message once
  // Producer's commit to the inbox's commit, in milliseconds, over the handled messages
  // (nearest rank); 0 when none was handled.
  double p50_ms = 0;
  double p99_ms = 0;
  double p999_ms = 0;
  double max_ms = 0;
  std::vector<double> latencies_ms;  // every handled message's, ascending
};

// The percentiles of `report.latencies_ms` (sorted), into its p50..max.
void summarise(LatencyReport& report);

// Runs the phase on `outbox` and `inbox` (migrated, on one database) through `transport`.
// Throws what the store, the relay or the consumer runner threw (a TransportError naming
// the broker when it cannot go on).
LatencyReport measure_end_to_end(OutboxStore& outbox, InboxStore& inbox, Transport& transport,
                                 const LatencyOptions& options);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_RELAY_LATENCY_H_
