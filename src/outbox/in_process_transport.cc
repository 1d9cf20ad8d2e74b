#include "docket/transports/in_process_transport.h"

#include <string>
#include <utility>

#include "core/stable_hash.h"

namespace docket {
namespace {

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

}  // namespace

InProcessTransport::InProcessTransport(std::size_t capacity, TransportFaults faults)
    : capacity_(capacity), faults_(faults) {
  if (capacity_ == 0) {
    throw ConfigurationError("in-process transport: capacity is 0; allow at least 1 message");
  }
  validate(faults_);
}

bool InProcessTransport::decide(double probability, const std::string& id, std::string_view what,
                                std::uint64_t nth) const {
  if (probability <= 0.0) {
    return false;
  }
  const std::uint64_t salt = core::stable_hash(faults_.seed, what, 0);
  return core::unit_interval(core::stable_hash(salt, id, nth)) < probability;
}

void InProcessTransport::publish(const TransportMessage& message) {
  std::unique_lock lock(mutex_);
  const std::string& id = message.envelope.message_id;
  const auto failed_before = publish_attempts_.find(id);
  const std::uint64_t attempt =
      failed_before == publish_attempts_.end() ? 0 : failed_before->second;
  if (decide(faults_.publish_failure, id, "publish_failure", attempt)) {
    publish_attempts_[id] = attempt + 1;
    ++stats_.publish_failures;
    throw TransportError("in-process transport: injected publish failure for message '" + id +
                         "' (attempt " + std::to_string(attempt + 1) + ")");
  }
  // Back-pressure applies to new publishes only: redeliveries and duplicates are added
  // by the consumer's side, which must never wait on itself.
  changed_.wait(lock, [&] { return closed_ || queue_.size() + held_.size() < capacity_; });
  if (closed_) {
    publish_attempts_[id] = attempt + 1;
    ++stats_.publish_failures;
    throw TransportError("in-process transport: closed; message '" + id + "' was not taken");
  }
  ++stats_.published;
  publish_attempts_.erase(id);  // taken: a later publish of it starts over
  const bool duplicate = decide(faults_.duplicate, id, "duplicate", attempt);
  Copy copy{.message = message};
  if (decide(faults_.delay, id, "delay", attempt)) {
    ++stats_.delayed;
    held_.push_back(Held{copy, faults_.delay_span});
  } else {
    enqueue_locked(copy, /*may_reorder=*/true);
  }
  if (duplicate) {
    copy.duplicate = true;
    enqueue_locked(std::move(copy), /*may_reorder=*/false);
  }
  changed_.notify_all();
}

void InProcessTransport::enqueue_locked(Copy copy, bool may_reorder) {
  const std::string& id = copy.message.envelope.message_id;
  if (may_reorder && !queue_.empty() && decide(faults_.reorder, id, "reorder", copy.received)) {
    ++stats_.reordered;
    const std::uint64_t place = core::stable_hash(faults_.seed, id, queue_.size());
    queue_.insert(queue_.begin() + static_cast<std::ptrdiff_t>(place % queue_.size()),
                  std::move(copy));
    return;
  }
  queue_.push_back(std::move(copy));
}

void InProcessTransport::release_held_locked(bool all) {
  for (auto it = held_.begin(); it != held_.end();) {
    if (all || --it->remaining == 0) {
      queue_.push_back(std::move(it->copy));
      it = held_.erase(it);
    } else {
      ++it;
    }
  }
}

std::optional<Delivery> InProcessTransport::receive(std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [&] { return closed_ || !queue_.empty() || !held_.empty(); });
  release_held_locked(/*all=*/queue_.empty());  // nothing else to deliver: stop holding back
  if (queue_.empty()) {
    return std::nullopt;
  }
  Copy copy = std::move(queue_.front());
  queue_.pop_front();
  ++copy.received;
  Delivery delivery{.message = copy.message,
                    .tag = next_tag_++,
                    .redelivered = copy.redelivered,
                    .duplicate = copy.duplicate};
  ++stats_.deliveries;
  stats_.redeliveries += delivery.redelivered ? 1 : 0;
  stats_.duplicates += delivery.duplicate ? 1 : 0;
  unacked_.emplace(delivery.tag, std::move(copy));
  changed_.notify_all();  // a place freed up for publishers
  return delivery;
}

void InProcessTransport::ack(std::uint64_t tag) {
  std::lock_guard lock(mutex_);
  const auto it = unacked_.find(tag);
  if (it == unacked_.end()) {
    return;
  }
  Copy copy = std::move(it->second);
  unacked_.erase(it);
  if (decide(faults_.drop_ack, copy.message.envelope.message_id,
             copy.duplicate ? "drop_ack_dup" : "drop_ack", copy.received)) {
    ++stats_.dropped_acks;
    copy.redelivered = true;
    queue_.push_back(std::move(copy));
  } else {
    ++stats_.acked;
  }
  changed_.notify_all();
}

std::size_t InProcessTransport::recover() {
  std::lock_guard lock(mutex_);
  const std::size_t count = unacked_.size();
  for (auto& [tag, copy] : unacked_) {
    copy.redelivered = true;
    queue_.push_back(std::move(copy));
  }
  unacked_.clear();
  changed_.notify_all();
  return count;
}

void InProcessTransport::close() {
  std::lock_guard lock(mutex_);
  closed_ = true;
  changed_.notify_all();
}

bool InProcessTransport::idle() const {
  std::lock_guard lock(mutex_);
  return queue_.empty() && held_.empty() && unacked_.empty();
}

void InProcessTransport::set_faults(TransportFaults faults) {
  validate(faults);
  std::lock_guard lock(mutex_);
  faults_ = faults;
}

std::size_t InProcessTransport::messages_awaiting_retry() const {
  const std::lock_guard lock(mutex_);
  return publish_attempts_.size();
}

TransportStats InProcessTransport::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace docket
