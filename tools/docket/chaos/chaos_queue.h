// The broker of `docket chaos`: a durable queue in a file of its own, shared by the
// relay process (publish) and the consumer process (receive, ack), each of which may
// be killed at any instruction. A provider of this build keeps it (chaos_provider.h:
// SQLite's, src/providers/sqlite/chaos/), so that nothing here names a database.
//
// Every implementation behaves as the brokers users run do, at least once:
//  - publish() returns once the message is durably queued; a relay killed before it
//    marked the row done publishes it again, and both copies are delivered;
//  - receive() hides a message for the visibility timeout and counts the delivery; a
//    consumer killed before ack() sees it again once the timeout passed;
//  - ack() removes the delivered copy.
// Its counters (published, deliveries, redeliveries, absorbed) are written in the same
// transactions, so they survive the kills and tell the run's story afterwards.
//
// Thread-safety: one ChaosQueue per thread; any number of processes share the file.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_QUEUE_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_QUEUE_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "docket/core/clock.h"
#include "docket/transports/transport.h"

namespace docket::tool {

struct QueueDelivery {
  std::int64_t tag = 0;  // what ack() takes
  TransportMessage message;
};

struct QueueCounters {
  std::int64_t published = 0;     // copies queued (a relay's republish counts again)
  std::int64_t deliveries = 0;    // receives
  std::int64_t redeliveries = 0;  // ... of a copy received before (its consumer died)
  std::int64_t absorbed = 0;      // acks of a delivery the inbox collapsed as a duplicate
  std::int64_t depth = 0;         // copies still queued
};

class ChaosQueue : public Transport {
 public:
  // publish() (Transport): queues one copy of the message, durably.

  // The oldest copy visible at `now`, hidden until now + visibility; nullopt when none.
  virtual std::optional<QueueDelivery> receive(Timestamp now,
                                               std::chrono::microseconds visibility) = 0;
  // Removes the copy `tag`; `absorbed`: the inbox collapsed it as a duplicate.
  virtual void ack(std::int64_t tag, bool absorbed) = 0;

  virtual QueueCounters counters() = 0;
};

// Opens (creating when missing) the queue in the file `path`, kept by the first
// provider of this build that keeps one (chaos_providers()). Throws ConfigurationError
// when none does, and what opening the file throws.
std::unique_ptr<ChaosQueue> open_chaos_queue(const std::string& path);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_QUEUE_H_
