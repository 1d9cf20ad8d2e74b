// What a broker transport gives `docket bench relay`: the raw limit of publishing on its
// broker (the same messages, with confirms, through the same client library, with no
// docket code), and the run's queues, which the bench inspects and removes.
//
// Each transport's bench part lives in its own folder (src/transports/<name>/bench/,
// library docket_transport_<name>_bench, linked by the tool only), added by
// docket_transport_built() and listed in DOCKET_BENCH_TRANSPORTS; the bench core
// (relay_bench.cc) reaches it through these interfaces only, found by the transport URL's
// scheme (bench_transports.cc), so the tool names no transport.
//
// A run's messages go to destinations of its own, each with one consumer group whose
// queue docket's Transport::subscribe() declared before anything was published (a
// publish no queue is bound for is unroutable, not lost): the raw side publishes to
// them as docket does, and the bench removes them when the run ends.
//
// Thread-safety: implementations are immutable; every member may be called from many
// threads. A RawPublishSession belongs to one thread at a time.
#ifndef DOCKET_BENCH_BENCH_TRANSPORT_H_
#define DOCKET_BENCH_BENCH_TRANSPORT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "docket/transports/transport_message.h"
#include "side_by_side.h"

namespace docket::bench {

// One connection's raw publishing of a run's messages (given when it was opened).
class RawPublishSession {
 public:
  virtual ~RawPublishSession() = default;

  // Publishes messages [items.begin, items.end) in batches of `batch` (the last may be
  // shorter): sends a batch, then waits for the broker's confirm of each of its messages
  // before sending the next. Throws InfrastructureError naming the broker, the
  // destination and the message when one is not confirmed (refused, unroutable) or no
  // confirm comes within the URL's timeout.
  virtual void publish(ItemRange items, std::size_t batch) = 0;

  // Waits for confirms so far: one per batch published.
  virtual std::uint64_t confirm_waits() const noexcept = 0;
  // Messages the broker confirmed so far.
  virtual std::uint64_t confirmed() const noexcept = 0;
};

class TransportBench {
 public:
  virtual ~TransportBench() = default;

  // A URL of this transport for examples and --help.
  virtual std::string_view example_url() const noexcept = 0;

  // Connects to `url` (a URL docket's transport accepts) to publish `messages` (which
  // outlive the session), converted to the transport's wire form exactly as docket's
  // transport converts them, as set-up. Throws ConfigurationError / InfrastructureError
  // naming the broker when it cannot connect or log in.
  virtual std::unique_ptr<RawPublishSession> raw_session(
      std::string_view url, std::span<const TransportMessage> messages) const = 0;

  // The messages waiting in the queue of `group` for `destination`. Throws
  // InfrastructureError when it does not exist.
  virtual std::uint64_t queued(std::string_view url, std::string_view destination,
                               std::string_view group) const = 0;
  // Empties that queue (set-up between runs, not measured).
  virtual void purge(std::string_view url, std::string_view destination,
                     std::string_view group) const = 0;
  // Deletes that queue, with what it holds; nothing when it does not exist.
  virtual void remove(std::string_view url, std::string_view destination,
                      std::string_view group) const = 0;
};

// This build's transport bench part for `url`, by its scheme. Throws ConfigurationError
// for a URL no transport of this build opens (open_transport()'s refusal, listing what
// it opens) and for a transport without a bench part, naming the transports that have
// one (bench_transports.cc).
const TransportBench& transport_bench(std::string_view url);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_BENCH_TRANSPORT_H_
