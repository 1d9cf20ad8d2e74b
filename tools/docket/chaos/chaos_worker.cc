#include "chaos_worker.h"

#include <pthread.h>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <stop_token>
#include <thread>

#include "chaos_ledger.h"
#include "chaos_queue.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
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
    examples::place_order(*store, outbox, *services, examples::order_of(options.run, ++n));
    next += period;
    examples::wait_until(next, stop);
  }
}

void relay(const ChaosWorkerOptions& options, std::stop_token stop) {
  const auto store = open_outbox_store(options.store_url);
  const std::unique_ptr<ChaosQueue> queue = open_chaos_queue(options.queue_path);
  Relay relay(*store, *queue,
              RelayOptions({.poll_interval = std::chrono::milliseconds(10),
                            .batch_size = 20,
                            .max_attempts = 1000,
                            .lease = kChaosLease,
                            .backoff_base = std::chrono::milliseconds(10),
                            .backoff_cap = std::chrono::milliseconds(500)}));
  relay.run(stop);
}

void consume(const ChaosWorkerOptions& options, std::stop_token stop) {
  const auto store = open_inbox_store(options.store_url);
  const auto services = examples::services_for_store(options.store_url);
  const ChaosLedger ledger(options.store_url);
  const InboxDispatcher billing = examples::billing_dispatcher(
      *store, *services, [&ledger](HandlerTransaction& tx, const examples::OrderPlaced& order) {
        ledger.record(tx, order.order_id);
      });
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
      break;
  }
  return "consumer";
}

std::optional<ChaosRole> parse_role(std::string_view name) noexcept {
  for (const ChaosRole role : kChaosRoles) {
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
      return relay(options, stop_on_signal.token());
    case ChaosRole::kConsumer:
      return consume(options, stop_on_signal.token());
  }
}

}  // namespace docket::tool
