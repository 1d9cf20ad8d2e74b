#include "chaos_worker.h"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <stop_token>
#include <thread>

#include "chaos_ledger.h"
#include "chaos_queue.h"
#include "delivery_tally.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "docket/transports/consumer_runner.h"
#include "docket/transports/open_transport.h"
#include "pipeline_threads.h"
#include "services.h"
#include "services_for_store.h"

namespace docket::tool {
namespace {

// Turns SIGTERM and SIGINT into a stop request: both are blocked in this thread (and
// so in every thread started after it), and one thread of its own waits for them.
class StopOnSignal {
 public:
  StopOnSignal() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGTERM);
    sigaddset(&signals_, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    waiter_ = std::jthread([this] {
      int received = 0;
      sigwait(&signals_, &received);
      source_.request_stop();
    });
  }
  ~StopOnSignal() {
    if (!source_.stop_requested()) {
      pthread_kill(waiter_.native_handle(), SIGTERM);  // ends the waiter's sigwait
    }
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

  std::stop_token token() const noexcept { return source_.get_token(); }

 private:
  sigset_t signals_{};
  std::stop_source source_;
  std::jthread waiter_;
};

// The broker's transport, counting the copies it confirmed (delivery_tally.h).
class TalliedTransport final : public Transport {
 public:
  TalliedTransport(std::unique_ptr<Transport> broker, DeliveryTally& tally)
      : broker_(std::move(broker)), tally_(tally) {}

  std::string describe() const override { return broker_->describe(); }

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override {
    std::vector<PublishResult> results = broker_->publish_batch(batch);
    const auto confirmed = std::ranges::count_if(results, &PublishResult::is_confirmed);
    tally_.add(DeliveryTally::Count::kPublished, static_cast<std::size_t>(confirmed));
    return results;
  }

 private:
  std::unique_ptr<Transport> broker_;
  DeliveryTally& tally_;
};

constexpr RelaySettings kRelaySettings{.poll_interval = std::chrono::milliseconds(10),
                                       .batch_size = 20,
                                       .max_attempts = 1000,
                                       .lease = kChaosLease,
                                       .backoff_base = std::chrono::milliseconds(10),
                                       .backoff_cap = std::chrono::milliseconds(500)};

void produce(const ChaosWorkerOptions& options, std::stop_token stop) {
  const auto store = open_outbox_store(options.store_url);
  const Outbox outbox(*store);
  const auto services = examples::services_for_store(options.store_url);
  std::size_t n = services->placed_orders(options.run).size();
  // The ledger's streams and sagas are the default tenant's: so are the messages.
  const TenantScope tenant(TenantId::default_tenant());
  const auto period = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(1.0 / static_cast<double>(options.orders_per_second)));
  auto next = std::chrono::steady_clock::now();
  while (!stop.stop_requested()) {
    const examples::OrderPlaced order = examples::order_of(options.run, ++n);
    try {
      examples::place_order(*store, outbox, *services, order, options.destination);
    } catch (const Error&) {
      // The killed predecessor's last commit may land on the server after this process
      // counted the orders placed: that order exists, placed with its message, and the
      // next one is this process's to place. Anything else is a failure.
      const std::vector<std::string> placed = services->placed_orders(options.run);
      if (std::find(placed.begin(), placed.end(), order.order_id) == placed.end()) {
        throw;
      }
    }
    next += period;
    examples::wait_until(next, stop);
  }
}

void relay(const ChaosWorkerOptions& options, std::stop_token stop) {
  // The skewed relay's process reads a clock that runs ahead, as a host whose clock
  // drifted would: the store it opens and the relay both take their time from it.
  const OffsetClock clock(SystemClock::instance(), options.clock_skew);
  const auto store = open_outbox_store(options.store_url, clock);
  std::unique_ptr<Transport> transport;
  std::optional<DeliveryTally> tally;
  if (options.transport_url.empty()) {
    transport = open_chaos_queue(options.queue_path);
  } else {
    tally.emplace(options.tally_dir);
    transport = std::make_unique<TalliedTransport>(open_transport(options.transport_url), *tally);
  }
  Relay relay(*store, *transport, RelayOptions(kRelaySettings), clock);
  relay.run(stop);
}

// Billing across a broker: a consumer runner hands each delivery to billing's inbox and
// acknowledges it after the commit; a failed handler's delivery comes back after a short
// backoff, as often as it takes (the store may be failing under it).
void consume_from_broker(const ChaosWorkerOptions& options, const InboxDispatcher& billing,
                         std::stop_token stop) {
  const std::unique_ptr<Transport> transport = open_transport(options.transport_url);
  DeliveryTally tally(options.tally_dir);
  ConsumerRunner runner(
      *transport, billing,
      ConsumerRunnerOptions(
          {.destination = options.destination, .group = std::string(kChaosGroup), .prefetch = 20},
          {.max_deliveries = 1'000'000,
           .retry_base = std::chrono::milliseconds(10),
           .retry_cap = std::chrono::milliseconds(500),
           .poll = std::chrono::milliseconds(50),
           .on_committed = [&tally](const Delivery& delivery, DispatchOutcome outcome) {
             tally.add(DeliveryTally::Count::kDeliveries);
             if (delivery.redelivered) {
               tally.add(DeliveryTally::Count::kRedeliveries);
             }
             if (outcome == DispatchOutcome::kSkippedDuplicate) {
               tally.add(DeliveryTally::Count::kAbsorbed);
             }
           }}));
  runner.run(stop);
}

void consume(const ChaosWorkerOptions& options, std::stop_token stop) {
  const auto store = open_inbox_store(options.store_url);
  const auto services = examples::services_for_store(options.store_url);
  const ChaosLedger ledger(options.store_url);
  const InboxDispatcher billing = examples::billing_dispatcher(
      *store, *services, [&ledger](HandlerTransaction& tx, const examples::OrderPlaced& order) {
        ledger.record(tx, order.order_id);
      });
  if (!options.transport_url.empty()) {
    return consume_from_broker(options, billing, stop);
  }
  const std::unique_ptr<ChaosQueue> queue = open_chaos_queue(options.queue_path);
  while (!stop.stop_requested()) {
    const auto delivery = queue->receive(SystemClock::instance().now(), kChaosLease);
    if (!delivery) {
      examples::wait_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(10), stop);
      continue;
    }
    const DispatchOutcome outcome = dispatch_message(billing, delivery->message);
    queue->ack(delivery->tag, outcome == DispatchOutcome::kSkippedDuplicate);
  }
}

}  // namespace

std::string_view role_name(ChaosRole role) noexcept {
  switch (role) {
    case ChaosRole::kProducer:
      return "producer";
    case ChaosRole::kRelay:
      return "relay";
    case ChaosRole::kConsumer:
      return "consumer";
    case ChaosRole::kSkewedRelay:
      break;
  }
  return "skewed-relay";
}

std::optional<ChaosRole> parse_role(std::string_view name) noexcept {
  for (const ChaosRole role : kAllChaosRoles) {
    if (role_name(role) == name) {
      return role;
    }
  }
  return std::nullopt;
}

void run_chaos_worker(const ChaosWorkerOptions& options) {
  const StopOnSignal stop_on_signal;
  switch (options.role) {
    case ChaosRole::kProducer:
      return produce(options, stop_on_signal.token());
    case ChaosRole::kRelay:
    case ChaosRole::kSkewedRelay:
      return relay(options, stop_on_signal.token());
    case ChaosRole::kConsumer:
      return consume(options, stop_on_signal.token());
  }
}

}  // namespace docket::tool
