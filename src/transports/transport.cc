#include "docket/transports/transport.h"

#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>

#include "docket/core/tenant.h"
#include "docket/spi/transport.h"

namespace docket {
namespace {

// The transport whose default do_publish_batch() is calling its publish() on this
// thread: a transport overriding neither would otherwise recurse between the two
// defaults. (A transport's publish() may publish through another transport.)
thread_local const Transport* publishing_one_by_one = nullptr;

std::string what_of(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "a non-standard exception";
  }
}

}  // namespace

std::string_view to_string(PublishStatus status) noexcept {
  switch (status) {
    case PublishStatus::kConfirmed:
      return "confirmed";
    case PublishStatus::kNacked:
      return "nacked";
    case PublishStatus::kUnroutable:
      return "unroutable";
    case PublishStatus::kRetryable:
      return "retryable";
    case PublishStatus::kRefused:
      return "refused";
  }
  return "unknown";
}

std::vector<PublishResult> Transport::publish_batch(std::span<const TransportMessage> batch) {
  if (batch.empty()) {
    return {};
  }
  std::vector<PublishResult> results;
  try {
    results = do_publish_batch(batch);
  } catch (const ConfigurationError&) {
    throw;  // no retry can fix it: the caller must hear it
  } catch (...) {
    const std::string error = what_of(std::current_exception());
    results.assign(batch.size(), PublishResult::failed(PublishStatus::kRetryable, error));
  }
  if (results.size() != batch.size()) {
    throw std::logic_error(describe() + ": answered " + std::to_string(results.size()) +
                           " results for a batch of " + std::to_string(batch.size()) +
                           " messages; a transport answers every message (docket/spi/transport.h)");
  }
  return results;
}

void Transport::publish(const TransportMessage& message) {
  if (publishing_one_by_one == this) {
    throw ConfigurationError(describe() +
                             ": overrides neither publish() nor do_publish_batch(); a transport "
                             "implements at least one (docket/spi/transport.h)");
  }
  const PublishResult result = publish_batch(std::span(&message, 1)).front();
  if (!result.is_confirmed()) {
    throw TransportError(result.error);
  }
}

std::vector<PublishResult> Transport::do_publish_batch(std::span<const TransportMessage> batch) {
  std::vector<PublishResult> results;
  results.reserve(batch.size());
  struct Restore {
    const Transport* previous = std::exchange(publishing_one_by_one, nullptr);
    ~Restore() { publishing_one_by_one = previous; }
  } restore;
  publishing_one_by_one = this;
  for (const TransportMessage& message : batch) {
    try {
      publish(message);
      results.push_back(PublishResult::confirmed());
    } catch (const ConfigurationError&) {
      throw;
    } catch (...) {
      results.push_back(
          PublishResult::failed(PublishStatus::kRetryable, what_of(std::current_exception())));
    }
  }
  return results;
}

Subscription Transport::subscribe(const SubscriptionOptions& options) {
  if (options.prefetch == 0) {
    throw ConfigurationError(describe() +
                             ": a subscription's prefetch is 0; allow at least 1 delivery in "
                             "flight (SubscriptionOptions::prefetch)");
  }
  return Subscription(do_subscribe(options));
}

std::string Transport::dead_letter_destination(std::string_view destination) const {
  return std::string(destination) + ".dead-letter";
}

std::string Transport::describe() const {
  return "transport";
}

std::unique_ptr<spi::SubscriptionChannel> Transport::do_subscribe(
    const SubscriptionOptions& options) {
  throw ConfigurationError(describe() + ": only publishes; it cannot subscribe to destination '" +
                           options.destination +
                           "': consume with a transport that has a consuming side");
}

Subscription::Subscription(std::unique_ptr<spi::SubscriptionChannel> channel)
    : channel_(std::move(channel)) {}
Subscription::Subscription(Subscription&&) noexcept = default;
Subscription& Subscription::operator=(Subscription&& other) noexcept {
  if (this != &other) {
    close();
    channel_ = std::move(other.channel_);
  }
  return *this;
}
Subscription::~Subscription() {
  close();
}

std::optional<Delivery> Subscription::next(std::chrono::milliseconds wait) {
  return channel_ ? channel_->next(wait) : std::nullopt;
}
void Subscription::acknowledge(std::uint64_t tag) {
  if (channel_) {
    channel_->acknowledge(tag);
  }
}
void Subscription::return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                                     std::string_view error) {
  if (channel_) {
    channel_->return_with_delay(tag, delay, error);
  }
}
void Subscription::dead_letter(std::uint64_t tag, std::string_view error) {
  if (channel_) {
    channel_->dead_letter(tag, error);
  }
}
void Subscription::close() {
  if (channel_) {
    channel_->close();
    channel_.reset();
  }
}

DispatchOutcome dispatch_message(const InboxDispatcher& dispatcher,
                                 const TransportMessage& message) {
  // The untenanted sentinel is what a store records outside any scope: an untenanted
  // scope records it again, whatever scope the caller runs in (two consumers under
  // different scopes must agree on the message's dedup key).
  const TenantScope scope(TenantId::from_stored(message.tenant));
  return dispatcher.dispatch(message.envelope);
}

}  // namespace docket
