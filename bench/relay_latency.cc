#include "relay_latency.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/transports/consumer_runner.h"

namespace docket::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::string_view kLatencyEventType = "bench.relay-latency";
constexpr std::string_view kNumberPrefix = R"({"n":)";
constexpr std::size_t kLatencyRelayBatch = 100;

struct LatencyEvent {
  std::string payload;
};

// The payload as is: the phase measures the way through the broker, not a parser.
struct LatencyCodec {
  LatencyEvent decode(std::string_view payload) const { return {std::string(payload)}; }
  std::string encode(const LatencyEvent& event) const { return event.payload; }
};

std::string payload_of(std::size_t number) {
  return std::string(kNumberPrefix) + std::to_string(number) + "}";
}

// The message number a payload of payload_of() carries; nullopt for any other.
std::optional<std::size_t> number_of(std::string_view payload) {
  if (!payload.starts_with(kNumberPrefix)) {
    return std::nullopt;
  }
  payload.remove_prefix(kNumberPrefix.size());
  std::size_t number = 0;
  const auto [end, error] =
      std::from_chars(payload.data(), payload.data() + payload.size(), number);
  if (error != std::errc() || end == payload.data()) {
    return std::nullopt;
  }
  return number;
}

std::int64_t steady_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch())
      .count();
}

// What the three parts share: the producer's commit times, the handler's measurements,
// and the first error a background part threw.
class LatencyLedger {
 public:
  explicit LatencyLedger(std::size_t messages)
      : committed_at_(std::make_unique<std::atomic<std::int64_t>[]>(messages)),
        messages_(messages) {
    latencies_ms_.reserve(messages);
  }

  void committed(std::size_t number) { committed_at_[number].store(steady_nanos()); }

  // The consumer's commit of message `number`: records its latency once the producer
  // noted its commit (the relay saw the row committed, so that note is at most a
  // preempted store away; a producer that threw in between never notes it, and the
  // message is left out after a few seconds).
  void handled(std::size_t number) {
    const std::int64_t now = steady_nanos();
    if (number >= messages_) {
      return;
    }
    const auto give_up = SteadyClock::now() + std::chrono::seconds(5);
    std::int64_t at = committed_at_[number].load();
    while (at == 0) {
      if (SteadyClock::now() > give_up) {
        return;  // its producer failed after the commit: the message is reported unhandled
      }
      std::this_thread::yield();
      at = committed_at_[number].load();
    }
    std::lock_guard lock(mutex_);
    latencies_ms_.push_back(static_cast<double>(now - at) / 1e6);
    changed_.notify_all();
  }

  void failed(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (!error_) {
      error_ = std::move(error);
    }
    changed_.notify_all();
  }
  bool has_failed() {
    std::lock_guard lock(mutex_);
    return error_ != nullptr;
  }

  // Waits until every message was handled, a part failed, or `deadline`.
  void wait(SteadyClock::time_point deadline) {
    std::unique_lock lock(mutex_);
    changed_.wait_until(lock, deadline,
                        [&] { return error_ != nullptr || latencies_ms_.size() >= messages_; });
  }

  void rethrow_failure() {
    std::lock_guard lock(mutex_);
    if (error_) {
      std::rethrow_exception(error_);
    }
  }

  // Read after the parts were joined.
  std::vector<double>& latencies_ms() { return latencies_ms_; }

 private:
  std::unique_ptr<std::atomic<std::int64_t>[]> committed_at_;  // 0: not committed yet
  std::size_t messages_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<double> latencies_ms_;
  std::exception_ptr error_;
};

// The nearest-rank percentile `p` (0 < p <= 1) of sorted `values`, not empty.
double percentile(const std::vector<double>& values, double p) {
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

RelayOptions latency_relay_options(const LatencyOptions& options) {
  RelaySettings settings;
  settings.batch_size = kLatencyRelayBatch;
  settings.poll_interval = options.poll;
  settings.max_poll_interval = options.max_poll;
  settings.wake_ups = options.wake_ups;
  return RelayOptions(settings);
}

}  // namespace

void summarise(LatencyReport& report) {
  const std::vector<double>& latencies = report.latencies_ms;
  report.handled = latencies.size();
  if (latencies.empty())
    return;
  report.p50_ms = percentile(latencies, 0.50);
  report.p99_ms = percentile(latencies, 0.99);
  report.p999_ms = percentile(latencies, 0.999);
  report.max_ms = latencies.back();
}

LatencyReport measure_end_to_end(OutboxStore& outbox_store, InboxStore& inbox_store,
                                 Transport& transport, const LatencyOptions& options) {
  LatencyLedger ledger(options.messages);
  HandlerRegistry handlers;
  handlers.on<LatencyEvent, LatencyCodec>(std::string(kLatencyEventType),
                                          [](const LatencyEvent&, HandlerContext&) {});
  const InboxDispatcher dispatcher(inbox_store, InboxOptions(options.consumer_id),
                                   std::move(handlers));
  ConsumerRunnerSettings settings;
  settings.poll = options.poll;
  settings.on_committed = [&ledger](const Delivery& delivery, DispatchOutcome outcome) {
    if (outcome != DispatchOutcome::kProcessed) {
      return;  // a redelivery the inbox collapsed: measured at its first commit
    }
    if (const auto number = number_of(delivery.message.envelope.payload)) {
      ledger.handled(*number);
    }
  };
  ConsumerRunner consumer(
      transport, dispatcher,
      ConsumerRunnerOptions({.destination = options.destination, .group = options.group},
                            settings));
  Relay relay(outbox_store, transport, latency_relay_options(options));
  const Outbox outbox(outbox_store);
  LatencyReport report;
  {
    // Declared after what they use, so that they are stopped and joined first.
    auto guarded = [&ledger](auto part) {
      return [&ledger, part](std::stop_token stop) {
        try {
          part(stop);
        } catch (...) {
          ledger.failed(std::current_exception());
        }
      };
    };
    std::jthread relaying(guarded([&relay](std::stop_token stop) { relay.run(stop); }));
    std::jthread consuming(guarded([&consumer](std::stop_token stop) { consumer.run(stop); }));
    OutboxMessage message{.event_type = std::string(kLatencyEventType),
                          .source = options.source,
                          .destination = options.destination};
    const auto period = std::chrono::nanoseconds(1'000'000'000 / options.rate);
    const auto start = SteadyClock::now();
    for (std::size_t n = 0; n < options.messages && !ledger.has_failed(); ++n) {
      std::this_thread::sleep_until(start + period * n);
      message.payload = payload_of(n);
      auto unit = outbox_store.begin();
      outbox.stage(unit->handler_transaction(), message);
      unit->commit();
      ledger.committed(n);
      ++report.staged;
    }
    ledger.wait(SteadyClock::now() + kLatencyGrace);
  }
  ledger.rethrow_failure();
  report.latencies_ms = std::move(ledger.latencies_ms());
  std::sort(report.latencies_ms.begin(), report.latencies_ms.end());
  summarise(report);
  return report;
}

}  // namespace docket::bench
