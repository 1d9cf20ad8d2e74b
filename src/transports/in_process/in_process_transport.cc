#include "docket/transports/in_process_transport.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>

#include "core/stable_hash.h"
#include "docket/spi/transport.h"

namespace docket {
namespace {

using SteadyClock = std::chrono::steady_clock;

enum Settle { kAcknowledge, kReturn, kDeadLetter };

void validate(const TransportFaults& f) {
  const std::pair<const char*, double> rates[] = {{"drop_ack", f.drop_ack},
                                                  {"duplicate", f.duplicate},
                                                  {"delay", f.delay},
                                                  {"reorder", f.reorder},
                                                  {"publish_failure", f.publish_failure}};
  for (const auto& [name, rate] : rates) {
    if (!(rate >= 0.0 && rate <= 1.0)) {
      throw ConfigurationError("in-process transport: fault rate " + std::string(name) + " is " +
                               std::to_string(rate) + "; a rate is a probability within [0, 1]");
    }
  }
  if (f.delay_span == 0) {
    throw ConfigurationError(
        "in-process transport: delay_span is 0; a delayed message is held for at least 1 receive");
  }
}

std::size_t size_of(const TransportMessage& message) {
  std::size_t bytes = message.envelope.payload.size();
  for (const MessageHeader& header : message.headers) {
    bytes += header.name.size() + header.value.size();
  }
  return bytes;
}

}  // namespace

// A subscription's channel: its settlements and deliveries go through the transport,
// which keeps every copy under one lock.
class InProcessTransport::Channel final : public spi::SubscriptionChannel {
 public:
  Channel(InProcessTransport& transport, std::uint64_t id, SubscriptionOptions options)
      : transport_(transport), id_(id), options_(std::move(options)) {}
  ~Channel() override { close(); }

  std::optional<Delivery> next(std::chrono::milliseconds wait) override {
    if (closed_) {
      return std::nullopt;
    }
    return transport_.next_for(id_, options_.destination, options_.prefetch, wait);
  }
  void acknowledge(std::uint64_t tag) override {
    transport_.settle(id_, tag, kAcknowledge, {}, {});
  }
  void return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                         std::string_view error) override {
    transport_.settle(id_, tag, kReturn, delay, error);
  }
  void dead_letter(std::uint64_t tag, std::string_view error) override {
    transport_.settle(id_, tag, kDeadLetter, {}, error);
  }
  void close() override {
    if (!closed_) {
      closed_ = true;
      transport_.close_channel(id_);
    }
  }

 private:
  InProcessTransport& transport_;
  const std::uint64_t id_;
  const SubscriptionOptions options_;
  bool closed_ = false;
};

InProcessTransport::InProcessTransport(std::size_t capacity, TransportFaults faults,
                                       InProcessRouting routing)
    : capacity_(capacity), routing_(std::move(routing)), faults_(faults) {
  if (capacity_ == 0) {
    throw ConfigurationError("in-process transport: capacity is 0; allow at least 1 message");
  }
  validate(faults_);
}

InProcessTransport::~InProcessTransport() = default;

bool InProcessTransport::decide(double probability, const std::string& id, std::string_view what,
                                std::uint64_t nth) const {
  if (probability <= 0.0) {
    return false;
  }
  const std::uint64_t salt = core::stable_hash(faults_.seed, what, 0);
  return core::unit_interval(core::stable_hash(salt, id, nth)) < probability;
}

std::vector<PublishResult> InProcessTransport::do_publish_batch(
    std::span<const TransportMessage> batch) {
  std::vector<PublishResult> results;
  results.reserve(batch.size());
  // Keys with a message not confirmed in this batch: their later messages stay unsent,
  // so that a key's messages enter the queue in their outbox order.
  std::set<std::string, std::less<>> failed_keys;
  std::unique_lock lock(mutex_);
  for (const TransportMessage& message : batch) {
    const auto& key = message.ordering_key;
    if (key && failed_keys.contains(*key)) {
      results.push_back(PublishResult::failed(
          PublishStatus::kRetryable, "in-process transport: message '" +
                                         message.envelope.message_id +
                                         "' not sent: an earlier message with ordering key '" +
                                         *key + "' in its batch was not confirmed"));
    } else {
      results.push_back(publish_locked(lock, message));
    }
    if (results.back().is_confirmed()) {
      ++stats_.published;
    } else {
      ++stats_.publish_failures;
      if (key) {
        failed_keys.insert(*key);
      }
    }
  }
  changed_.notify_all();
  return results;
}

PublishResult InProcessTransport::publish_locked(std::unique_lock<std::mutex>& lock,
                                                 const TransportMessage& message) {
  const std::string& id = message.envelope.message_id;
  if (routing_.unroutable.contains(message.destination)) {
    return PublishResult::failed(PublishStatus::kUnroutable,
                                 "in-process transport: no queue is bound to destination '" +
                                     message.destination + "' (message '" + id +
                                     "'): bind one, or stage the message for another destination");
  }
  if (routing_.max_message_bytes != 0 && size_of(message) > routing_.max_message_bytes) {
    return PublishResult::failed(
        PublishStatus::kRefused,
        "in-process transport: message '" + id + "' for destination '" + message.destination +
            "' is " + std::to_string(size_of(message)) + " bytes, over the limit of " +
            std::to_string(routing_.max_message_bytes) +
            " bytes; make its payload and headers smaller, or raise the limit");
  }
  const auto failed_before = publish_attempts_.find(id);
  const std::uint64_t attempt =
      failed_before == publish_attempts_.end() ? 0 : failed_before->second;
  if (decide(faults_.publish_failure, id, "publish_failure", attempt)) {
    publish_attempts_[id] = attempt + 1;
    return PublishResult::failed(PublishStatus::kRetryable,
                                 "in-process transport: injected publish failure for message '" +
                                     id + "' (attempt " + std::to_string(attempt + 1) + ")");
  }
  // Back-pressure applies to new publishes only: redeliveries and duplicates are added
  // by the consumer's side, which must never wait on itself.
  changed_.wait(lock, [&] { return closed_ || waiting_locked() < capacity_; });
  if (closed_) {
    publish_attempts_[id] = attempt + 1;
    return PublishResult::failed(
        PublishStatus::kRetryable,
        "in-process transport: closed; message '" + id + "' was not taken");
  }
  publish_attempts_.erase(id);  // taken: a later publish of it starts over
  const bool keyed = message.ordering_key.has_value();
  const bool duplicate = decide(faults_.duplicate, id, "duplicate", attempt);
  Copy copy{.message = message, .order = next_order_++};
  if (!keyed && decide(faults_.delay, id, "delay", attempt)) {
    ++stats_.delayed;
    held_.push_back(Held{copy, faults_.delay_span});
  } else {
    enqueue_locked(copy, /*may_reorder=*/!keyed);
  }
  if (duplicate) {
    copy.duplicate = true;
    copy.order = next_order_++;
    enqueue_locked(std::move(copy), /*may_reorder=*/false);
  }
  return PublishResult::confirmed();
}

std::size_t InProcessTransport::waiting_locked() const {
  return static_cast<std::size_t>(std::count_if(
             queue_.begin(), queue_.end(), [](const auto& e) { return !e.second.dead_letter; })) +
         held_.size();
}

void InProcessTransport::enqueue_locked(Copy copy, bool may_reorder) {
  const std::string& id = copy.message.envelope.message_id;
  if (may_reorder && !queue_.empty() && decide(faults_.reorder, id, "reorder", copy.deliveries)) {
    ++stats_.reordered;
    const std::uint64_t place = core::stable_hash(faults_.seed, id, queue_.size()) % queue_.size();
    const auto before = std::next(queue_.begin(), static_cast<std::ptrdiff_t>(place));
    copy.order = before->first;
    queue_.emplace_hint(before, copy.order, std::move(copy));
    return;
  }
  queue_.emplace(copy.order, std::move(copy));
}

void InProcessTransport::requeue_locked(Copy copy) {
  copy.redelivered = true;
  // Back at its own place: before the later messages of its key.
  queue_.emplace_hint(queue_.lower_bound(copy.order), copy.order, std::move(copy));
}

void InProcessTransport::release_held_locked() {
  const bool all = queue_.empty();  // nothing else to deliver: stop holding back
  for (auto it = held_.begin(); it != held_.end();) {
    if (all || --it->remaining == 0) {
      queue_.emplace(it->copy.order, std::move(it->copy));
      it = held_.erase(it);
    } else {
      ++it;
    }
  }
}

std::optional<Delivery> InProcessTransport::next_for(std::uint64_t channel,
                                                     const std::string& destination,
                                                     std::size_t prefetch,
                                                     std::chrono::milliseconds wait) {
  const auto deadline = SteadyClock::now() + wait;
  std::unique_lock lock(mutex_);
  release_held_locked();
  for (;;) {
    const auto now = SteadyClock::now();
    auto earliest_due = deadline;
    const auto held = static_cast<std::size_t>(
        std::count_if(unsettled_.begin(), unsettled_.end(),
                      [&](const auto& entry) { return entry.second.channel == channel; }));
    auto chosen = queue_.end();
    if (held < prefetch) {
      std::set<std::string, std::less<>> blocked_keys;  // an earlier message of it waits
      for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        const Copy& copy = it->second;
        const bool matches =
            destination.empty() ? !copy.dead_letter : copy.message.destination == destination;
        if (!matches) {
          continue;
        }
        const auto& key = copy.message.ordering_key;
        const bool key_free =
            !key || (!keys_in_flight_.contains(*key) && !blocked_keys.contains(*key));
        if (copy.due > now) {
          earliest_due = std::min(earliest_due, copy.due);
        } else if (key_free) {
          chosen = it;
          break;
        }
        if (key) {
          blocked_keys.insert(*key);
        }
      }
    }
    if (chosen != queue_.end()) {
      Copy copy = std::move(chosen->second);
      queue_.erase(chosen);
      ++copy.deliveries;
      Delivery delivery{.message = copy.message,
                        .tag = next_tag_++,
                        .delivery_count = copy.deliveries,
                        .redelivered = copy.redelivered,
                        .duplicate = copy.duplicate};
      ++stats_.deliveries;
      stats_.redeliveries += delivery.redelivered ? 1 : 0;
      stats_.duplicates += delivery.duplicate ? 1 : 0;
      if (copy.message.ordering_key) {
        ++keys_in_flight_[*copy.message.ordering_key];
      }
      unsettled_.emplace(delivery.tag, Unsettled{channel, std::move(copy)});
      changed_.notify_all();  // a place freed up for publishers
      return delivery;
    }
    if (closed_ || now >= deadline) {
      return std::nullopt;
    }
    changed_.wait_until(lock, earliest_due);
  }
}

void InProcessTransport::settle(std::uint64_t channel, std::uint64_t tag, int how,
                                std::chrono::milliseconds delay, std::string_view error) {
  const std::lock_guard lock(mutex_);
  const auto it = unsettled_.find(tag);
  if (it == unsettled_.end() || it->second.channel != channel) {
    return;  // settled already, or another subscription's
  }
  Copy copy = std::move(it->second.copy);
  unsettled_.erase(it);
  if (const auto& key = copy.message.ordering_key) {
    if (const auto in_flight = keys_in_flight_.find(*key); --in_flight->second == 0) {
      keys_in_flight_.erase(in_flight);
    }
  }
  switch (how) {
    case kAcknowledge:
      if (decide(faults_.drop_ack, copy.message.envelope.message_id,
                 copy.duplicate ? "drop_ack_dup" : "drop_ack", copy.deliveries)) {
        ++stats_.dropped_acks;
        requeue_locked(std::move(copy));
      } else {
        ++stats_.acked;
      }
      break;
    case kReturn:
      ++stats_.returned;
      copy.due = SteadyClock::now() + delay;
      requeue_locked(std::move(copy));
      break;
    default: {
      ++stats_.dead_lettered;
      TransportMessage dead = std::move(copy.message);
      dead.destination = dead_letter_destination(dead.destination);
      dead.headers.push_back({std::string(kDeadLetterErrorHeader), std::string(error)});
      dead.headers.push_back(
          {std::string(kDeadLetterDeliveriesHeader), std::to_string(copy.deliveries)});
      Copy dead_copy{.message = std::move(dead), .order = next_order_++, .dead_letter = true};
      queue_.emplace(dead_copy.order, std::move(dead_copy));
      break;
    }
  }
  changed_.notify_all();
}

void InProcessTransport::close_channel(std::uint64_t channel) {
  const std::lock_guard lock(mutex_);
  for (auto it = unsettled_.begin(); it != unsettled_.end();) {
    if (it->second.channel != channel) {
      ++it;
      continue;
    }
    Copy copy = std::move(it->second.copy);
    it = unsettled_.erase(it);
    if (const auto& key = copy.message.ordering_key) {
      if (const auto in_flight = keys_in_flight_.find(*key); --in_flight->second == 0) {
        keys_in_flight_.erase(in_flight);
      }
    }
    ++stats_.returned;
    requeue_locked(std::move(copy));
  }
  changed_.notify_all();
}

std::unique_ptr<spi::SubscriptionChannel> InProcessTransport::do_subscribe(
    const SubscriptionOptions& options) {
  const std::lock_guard lock(mutex_);
  return std::make_unique<Channel>(*this, next_channel_++, options);
}

void InProcessTransport::close() {
  const std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

bool InProcessTransport::idle() const {
  const std::lock_guard lock(mutex_);
  return waiting_locked() == 0 && unsettled_.empty();
}

void InProcessTransport::set_faults(TransportFaults faults) {
  validate(faults);
  const std::lock_guard lock(mutex_);
  faults_ = faults;
}

std::size_t InProcessTransport::messages_awaiting_retry() const {
  const std::lock_guard lock(mutex_);
  return publish_attempts_.size();
}

TransportStats InProcessTransport::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace docket
