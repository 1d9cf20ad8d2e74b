#include "docket/transports/consumer_runner.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_errors.h"

namespace docket {
namespace {

std::string handler_error_text(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "a non-standard exception";
  }
}

const ConsumerRunnerSettings& validated(const ConsumerRunnerSettings& s,
                                        const SubscriptionOptions& subscription) {
  if (subscription.prefetch == 0) {
    throw ConfigurationError("consumer runner: prefetch is 0; allow at least 1 delivery in flight");
  }
  if (s.max_deliveries == 0) {
    throw ConfigurationError(
        "consumer runner: max_deliveries is 0; a message is delivered at least once before it "
        "is dead-lettered");
  }
  if (s.poll.count() <= 0) {
    throw ConfigurationError("consumer runner: poll is " + std::to_string(s.poll.count()) +
                             "ms; wait a positive time for a delivery");
  }
  return s;
}

// The claim inbox's answer as the transactional inbox's: what the runner acknowledges.
// Another worker holding the entry is not done yet: a failure, so that the delivery
// comes back after backoff.
DispatchOutcome claim_outcome(ClaimRunOutcome outcome, const TransportMessage& message) {
  switch (outcome) {
    case ClaimRunOutcome::kProcessed:
    case ClaimRunOutcome::kSuperseded:
      return DispatchOutcome::kProcessed;
    case ClaimRunOutcome::kAlreadyProcessed:
      return DispatchOutcome::kSkippedDuplicate;
    default:
      throw TransportError("consumer runner: message '" + message.envelope.message_id +
                           "' is claimed by another worker; it comes again after backoff");
  }
}

}  // namespace

ConsumerRunnerOptions::ConsumerRunnerOptions(SubscriptionOptions subscription,
                                             ConsumerRunnerSettings settings)
    : subscription_(std::move(subscription)),
      settings_(validated(settings, subscription_)),
      schedule_("consumer runner", settings_.retry_base, settings_.retry_cap, settings_.jitter) {}

ConsumerRunner::ConsumerRunner(Transport& transport, const InboxDispatcher& dispatcher,
                               ConsumerRunnerOptions options)
    : transport_(transport),
      consume_([&dispatcher](const TransportMessage& message) {
        return dispatch_message(dispatcher, message);
      }),
      options_(std::move(options)) {}

ConsumerRunner::ConsumerRunner(Transport& transport, const ClaimRunner& claims,
                               std::function<void(const TransportMessage&)> handler,
                               ConsumerRunnerOptions options)
    : transport_(transport),
      consume_([&claims, handler = std::move(handler)](const TransportMessage& message) {
        // The message's tenant as the ambient one, as dispatch_message does.
        std::optional<TenantScope> scope;
        if (message.tenant != kUntenantedSentinel) {
          scope.emplace(TenantId(message.tenant));
        }
        return claim_outcome(claims.run(message.envelope.message_id, [&] { handler(message); }),
                             message);
      }),
      options_(std::move(options)) {}

ConsumerRunner::~ConsumerRunner() = default;

std::size_t ConsumerRunner::run_once(std::stop_token stop) {
  const ConsumerRunnerSettings& s = options_.settings();
  if (!subscription_) {
    subscription_.emplace(transport_.subscribe(options_.subscription()));
  }
  std::vector<Delivery> held;
  if (auto first = subscription_->next(s.poll)) {
    held.push_back(std::move(*first));
  }
  while (!held.empty() && held.size() < options_.subscription().prefetch) {
    auto more = subscription_->next(std::chrono::milliseconds(0));
    if (!more) {
      break;
    }
    held.push_back(std::move(*more));
  }
  std::uint64_t most = max_held_.load();
  while (held.size() > most && !max_held_.compare_exchange_weak(most, held.size())) {
  }
  try {
    for (const Delivery& delivery : held) {
      if (stop.stop_requested() && !s.finish_on_stop) {
        subscription_->return_with_delay(delivery.tag, std::chrono::milliseconds(0),
                                         "consumer runner stopped before handling it");
        ++returned_on_stop_;
        continue;
      }
      handle(*subscription_, delivery);
    }
  } catch (...) {
    // on_committed threw: stop as a crashed consumer would. Closing the subscription
    // returns what it holds, unacknowledged, for redelivery.
    subscription_.reset();
    throw;
  }
  if (stop.stop_requested()) {
    // Stopping: what was returned goes back to the transport now, not when a later pass
    // (or the broker's heartbeat timeout) closes the subscription.
    subscription_.reset();
  }
  return held.size();
}

ConsumerRunner::Handled ConsumerRunner::handle(Subscription& subscription,
                                               const Delivery& delivery) {
  const ConsumerRunnerSettings& s = options_.settings();
  DispatchOutcome outcome{};
  try {
    outcome = consume_(delivery.message);
  } catch (const InboxStoreError& error) {
    return return_after_store_failure(subscription, delivery, error.what());
  } catch (const InvalidInputError& error) {
    // The message itself is malformed (its id, its event type): no delivery will do
    // better, so it goes to the dead letters at once.
    subscription.dead_letter(delivery.tag, error.what());
    ++dead_lettered_;
    return Handled::kDeadLettered;
  } catch (...) {
    const std::string error = handler_error_text(std::current_exception());
    const std::uint32_t counted = counted_deliveries(delivery);
    if (counted >= s.max_deliveries) {
      store_failed_deliveries_.erase(delivery.message.envelope.message_id);
      subscription.dead_letter(delivery.tag, error);
      ++dead_lettered_;
      return Handled::kDeadLettered;
    }
    const auto delay = options_.retry_schedule().delay(delivery.message.envelope.message_id,
                                                       static_cast<int>(counted));
    subscription.return_with_delay(delivery.tag,
                                   std::chrono::ceil<std::chrono::milliseconds>(delay), error);
    ++returned_;
    return Handled::kReturned;
  }
  if (s.on_committed) {
    s.on_committed(delivery, outcome);
  }
  subscription.acknowledge(delivery.tag);
  if (!store_failed_deliveries_.empty()) {
    store_failed_deliveries_.erase(delivery.message.envelope.message_id);
  }
  switch (outcome) {
    case DispatchOutcome::kProcessed:
      ++processed_;
      break;
    case DispatchOutcome::kSkippedDuplicate:
      ++skipped_duplicates_;
      break;
    case DispatchOutcome::kUnhandled:
      ++unhandled_;
      break;
  }
  return Handled::kAcknowledged;
}

ConsumerRunner::Handled ConsumerRunner::return_after_store_failure(Subscription& subscription,
                                                                   const Delivery& delivery,
                                                                   const std::string& error) {
  if (store_failed_deliveries_.size() >= kRememberedStoreFailures) {
    store_failed_deliveries_.clear();  // forgetting only ever counts more deliveries
  }
  const std::uint32_t failures = ++store_failed_deliveries_[delivery.message.envelope.message_id];
  const auto delay = options_.retry_schedule().delay(delivery.message.envelope.message_id,
                                                     static_cast<int>(failures));
  subscription.return_with_delay(delivery.tag, std::chrono::ceil<std::chrono::milliseconds>(delay),
                                 error);
  ++store_failures_;
  return Handled::kReturned;
}

std::uint32_t ConsumerRunner::counted_deliveries(const Delivery& delivery) const {
  const auto failed = store_failed_deliveries_.find(delivery.message.envelope.message_id);
  const std::uint32_t store_failed = failed == store_failed_deliveries_.end() ? 0 : failed->second;
  return delivery.delivery_count > store_failed ? delivery.delivery_count - store_failed : 1;
}

void ConsumerRunner::run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    run_once(stop);
  }
  subscription_.reset();  // nothing is held between passes: closing returns nothing
}

ConsumerRunnerStats ConsumerRunner::stats() const {
  return ConsumerRunnerStats{.processed = processed_.load(),
                             .skipped_duplicates = skipped_duplicates_.load(),
                             .unhandled = unhandled_.load(),
                             .returned = returned_.load(),
                             .store_failures = store_failures_.load(),
                             .dead_lettered = dead_lettered_.load(),
                             .returned_on_stop = returned_on_stop_.load(),
                             .max_held = max_held_.load()};
}

}  // namespace docket
