// Options of an outbox relay, validated when constructed: a bad value fails at
// start-up, not on the first message.
//
// Retry delays: attempt n (1 = first failure) waits
//   d(n) = min(backoff_cap, backoff_base * 2^(n-1)) * (1 - jitter * u)
// where u in [0, 1) is derived from the message id and n alone, so one message's
// schedule is the same on every relay and every run, while different messages spread
// out. jitter 0 gives the bare exponential; jitter 1 spreads over (0, d].
//
// Thread-safety: immutable after construction.
#ifndef DOCKET_OUTBOX_RELAY_OPTIONS_H_
#define DOCKET_OUTBOX_RELAY_OPTIONS_H_

#include <chrono>
#include <cstddef>
#include <memory>

#include "docket/core/observer.h"

namespace docket {

struct RelaySettings {
  // Idle waits (Relay::run): after a claim that found nothing the relay waits
  // poll_interval, doubling after each further empty claim up to max_poll_interval,
  // back to poll_interval after a claim that found work. With wake_ups, a producer's
  // commit ends the wait at once where the store can tell (OutboxStore::staged_signal:
  // in-process commits on memory and SQLite, every process's on PostgreSQL); the
  // polls stay, so a lost notification delays a message by one wait, never more.
  std::chrono::microseconds poll_interval{std::chrono::milliseconds(200)};
  std::chrono::microseconds max_poll_interval{std::chrono::seconds(1)};
  bool wake_ups = true;
  std::size_t batch_size = 100;  // rows claimed per pass
  // Messages a transport publish carries (one broker confirm wait); 0: batch_size. A
  // claim's rows are published in chunks of it, in order, so that a broker taking one
  // message at a time costs the store one claim and one mark a batch_size, not a
  // message; at most batch_size.
  std::size_t publish_batch_size = 0;
  int max_attempts = 10;  // failed attempts before a message is parked
  // Must outlast two publishes of a batch: a pipelined relay (Relay::run, drain)
  // publishes a claimed batch after the one before it; a batch whose lease ended while
  // it waited is not published.
  std::chrono::microseconds lease{std::chrono::seconds(30)};
  std::chrono::microseconds backoff_base{std::chrono::milliseconds(500)};
  std::chrono::microseconds backoff_cap{std::chrono::minutes(5)};
  double jitter = 0.2;  // in [0, 1]
};

class RelayOptions {
 public:
  // Throws ConfigurationError naming the setting and its value when poll_interval,
  // batch_size, max_attempts, lease or backoff_base is not positive, when
  // publish_batch_size is above batch_size, when
  // max_poll_interval is below poll_interval, when backoff_cap is below backoff_base,
  // or when jitter is outside [0, 1] (or not a number).
  //
  // `observer`, when given, hears every message the relay publishes
  // (docket/core/observer.h): a span from just before its batch's publish to its
  // result's recording, with the outbox message's trace context, and its outcome
  // (confirmed, retry_scheduled, parked, lease_lost, or abandoned when the batch's
  // results were not recorded). Null: nothing is measured. It is an argument of its own,
  // not a setting, so that RelaySettings stays a literal type (constexpr settings).
  explicit RelayOptions(RelaySettings settings = {}, std::shared_ptr<Observer> observer = nullptr);

  const RelaySettings& settings() const noexcept { return settings_; }
  // Null when none was given.
  const std::shared_ptr<Observer>& observer() const noexcept { return observer_; }

 private:
  RelaySettings settings_;
  std::shared_ptr<Observer> observer_;
};

}  // namespace docket

#endif  // DOCKET_OUTBOX_RELAY_OPTIONS_H_
