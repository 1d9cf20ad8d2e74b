#include "transports/rabbitmq/rabbitmq_subscription_channel.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "docket/core/error.h"
#include "docket/transports/transport.h"
#include "transports/rabbitmq/rabbitmq_wire.h"

namespace docket::rabbitmq::detail {
namespace {

constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{5000};
constexpr std::size_t kMaxRemembered = 10000;
// A broker going down may close the socket of a client logging in again, which reads
// as a refused login. A reconnecting subscription takes that this many times in a row
// (with its backoff, about 25 s) before it calls the login refused; its first connect
// (subscribe()) reports a refused login at once.
constexpr int kRefusedLoginsTolerated = 8;
// How long a key's requeued deliveries are awaited back before what waits behind them is
// handed out regardless (they went to another consumer of the group, say).
constexpr std::chrono::milliseconds kAwaitRequeued{2000};

bool is_dead_letter_header(std::string_view name) {
  return name == kDeadLetterErrorHeader || name == kDeadLetterDeliveriesHeader ||
         name == kDeliveryCountHeader;
}

}  // namespace

SubscriptionChannel::SubscriptionChannel(std::shared_ptr<PublishingConnection> publishing,
                                         SubscriptionRoute route)
    : publishing_(std::move(publishing)), route_(std::move(route)) {
  try {
    connect();
  } catch (const BrokerError& error) {
    fail("subscribing", error);
  }
}

SubscriptionChannel::~SubscriptionChannel() {
  close();
}

void SubscriptionChannel::fail(std::string_view doing, const std::exception& error) const {
  throw TransportError("RabbitMQ transport, destination '" + route_.destination + "' (queue '" +
                       route_.queue + "'): " + std::string(doing) + " failed: " + error.what());
}

void SubscriptionChannel::connect() {
  auto connection = std::make_unique<Connection>(publishing_->url());
  consumer_ = std::make_unique<Consumer>(*connection, route_.queue, route_.prefetch);
  connection_ = std::move(connection);
  backoff_ = std::chrono::milliseconds(0);
  refused_logins_ = 0;
}

void SubscriptionChannel::lose_connection() {
  // The broker requeues every unacknowledged delivery of a closed connection.
  consumer_.reset();
  connection_.reset();
  held_.clear();
  awaited_.clear();
  ready_.clear();
  backoff_ = std::min(kMaxBackoff, std::max(kFirstBackoff, backoff_ * 2));
  next_connect_ = Clock::now() + backoff_;
}

std::optional<SubscriptionChannel::Clock::time_point> SubscriptionChannel::earliest_return() const {
  std::optional<Clock::time_point> earliest;
  for (const auto& [tag, held] : held_) {
    if (held.return_due && (!earliest || *held.return_due < *earliest))
      earliest = held.return_due;
  }
  for (const auto& [key, awaited] : awaited_) {
    if (!earliest || awaited.until < *earliest)
      earliest = awaited.until;
  }
  return earliest;
}

bool SubscriptionChannel::must_wait(const std::optional<std::string>& key,
                                    const std::string& message_id) {
  if (!key)
    return false;
  bool returning = false;
  bool waiting = false;
  for (const auto& [tag, held] : held_) {
    if (held.ordering_key == key) {
      returning = returning || held.return_due.has_value();
      waiting = waiting || held.held_back;
    }
  }
  if (returning)
    return true;  // requeued right after the return, behind it
  const auto awaited = awaited_.find(*key);
  if (awaited == awaited_.end())
    return waiting;
  if (!awaited->second.ids.empty() && awaited->second.ids.front() == message_id) {
    awaited->second.ids.pop_front();  // the next requeued one, back in its turn
    return false;
  }
  return true;
}

void SubscriptionChannel::release_waiting(const std::string& key) {
  const auto awaited = awaited_.find(key);
  const auto of_key = [&](const Held& held) { return held.ordering_key == key; };
  if (std::any_of(held_.begin(), held_.end(), [&](const auto& entry) {
        return of_key(entry.second) && entry.second.return_due;
      }))
    return;  // a return of the key is pending: what waits is requeued behind it
  if (awaited != awaited_.end()) {
    std::deque<std::string>& ids = awaited->second.ids;
    while (!ids.empty()) {
      const auto next = std::find_if(held_.begin(), held_.end(), [&](const auto& entry) {
        return of_key(entry.second) && entry.second.held_back &&
               entry.second.raw.message_id == ids.front();
      });
      if (next == held_.end())
        break;
      next->second.held_back = false;
      ready_.push_back(next->first);
      ids.pop_front();
    }
    if (!ids.empty() && Clock::now() < awaited->second.until)
      return;  // still awaiting the next one back
    awaited_.erase(awaited);
  }
  for (auto& [tag, held] : held_) {  // in arrival order
    if (of_key(held) && held.held_back) {
      held.held_back = false;
      ready_.push_back(tag);
    }
  }
}

void SubscriptionChannel::release_overdue() {
  const Clock::time_point now = Clock::now();
  std::vector<std::string> overdue;
  for (const auto& [key, awaited] : awaited_) {
    if (awaited.until <= now)
      overdue.push_back(key);
  }
  for (const std::string& key : overdue)
    release_waiting(key);
}

std::optional<docket::Delivery> SubscriptionChannel::hand_out(std::uint64_t tag) {
  const auto it = held_.find(tag);
  if (it == held_.end())
    return std::nullopt;
  return docket::Delivery{.message = from_delivery(it->second.raw),
                          .tag = tag,
                          .delivery_count = it->second.delivery_count,
                          .redelivered = it->second.raw.redelivered};
}

void SubscriptionChannel::requeue_due_returns() {
  const Clock::time_point now = Clock::now();
  for (auto it = held_.begin(); it != held_.end();) {
    if (!it->second.return_due || *it->second.return_due > now) {
      ++it;
      continue;
    }
    // The returned delivery first, then what waited behind it, in arrival order: the
    // broker puts requeued messages back in the order it receives the nacks.
    const std::optional<std::string> key = it->second.ordering_key;
    if (returned_.size() >= kMaxRemembered)
      returned_.clear();
    ++returned_[it->second.raw.message_id];
    // Awaited back in this order: whatever else of the key comes first waits for them.
    AwaitedReturns* awaited = nullptr;
    if (key) {
      awaited = &awaited_[*key];
      awaited->until = now + kAwaitRequeued;
      awaited->ids.push_back(it->second.raw.message_id);
    }
    consumer_->nack(it->second.raw.delivery_tag, true);
    it = held_.erase(it);
    for (auto later = it; later != held_.end();) {
      if (later->second.held_back && later->second.ordering_key == key) {
        if (awaited != nullptr)
          awaited->ids.push_back(later->second.raw.message_id);
        consumer_->nack(later->second.raw.delivery_tag, true);
        if (later == it)
          it = later = held_.erase(later);
        else
          later = held_.erase(later);
      } else {
        ++later;
      }
    }
  }
}

std::optional<docket::Delivery> SubscriptionChannel::next(std::chrono::milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  while (!closed_) {
    try {
      if (!consumer_) {
        if (Clock::now() < next_connect_) {
          std::this_thread::sleep_until(std::min(deadline, next_connect_));
          if (Clock::now() >= deadline)
            return std::nullopt;
        }
        connect();
      }
      requeue_due_returns();
      release_overdue();
      if (!ready_.empty()) {  // released deliveries go before anything new
        const std::uint64_t tag = ready_.front();
        ready_.pop_front();
        if (auto delivery = hand_out(tag))
          return delivery;
        continue;
      }
      Clock::time_point until = deadline;
      if (const auto due = earliest_return())
        until = std::min(until, *due);
      const auto timeout =
          std::max(std::chrono::milliseconds(1),
                   std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()));
      std::optional<Delivery> raw = consumer_->next(timeout);
      if (!raw) {
        if (Clock::now() >= deadline)
          return std::nullopt;
        continue;  // a return fell due first
      }
      Held held{.raw = std::move(*raw), .ordering_key = std::nullopt, .return_due = std::nullopt};
      held.delivery_count = delivery_count(held.raw);
      if (const auto returned = returned_.find(held.raw.message_id); returned != returned_.end())
        held.delivery_count = std::max(held.delivery_count, returned->second + 1);
      TransportMessage message;
      try {
        message = from_delivery(held.raw);
      } catch (const InvalidInputError& error) {
        publish_dead_letter(held.raw, held.delivery_count, error.what());
        consumer_->ack(held.raw.delivery_tag);
        continue;
      }
      held.ordering_key = message.ordering_key;
      held.held_back = must_wait(held.ordering_key, held.raw.message_id);
      const std::uint64_t tag = ++next_tag_;
      const bool redelivered = held.raw.redelivered;
      const std::uint32_t count = held.delivery_count;
      const bool held_back = held.held_back;
      const std::optional<std::string> key = held.ordering_key;
      held_.emplace(tag, std::move(held));
      if (held_back)
        continue;
      if (key && !awaited_.empty())
        release_waiting(*key);  // what waited behind this one may go next
      return docket::Delivery{.message = std::move(message),
                              .tag = tag,
                              .delivery_count = count,
                              .redelivered = redelivered};
    } catch (const ConnectionLost&) {
      lose_connection();
    } catch (const BrokerError& error) {
      const bool refused_login = error.kind() == BrokerErrorKind::authentication;
      if (!error.reconnect_may_help() &&
          !(refused_login && ++refused_logins_ <= kRefusedLoginsTolerated))
        fail("consuming", error);
      lose_connection();
    }
  }
  return std::nullopt;
}

void SubscriptionChannel::acknowledge(std::uint64_t tag) {
  const auto it = held_.find(tag);
  if (it == held_.end() || it->second.return_due || !consumer_)
    return;  // not held (settled, or its connection was lost: the broker redelivers it)
  const std::uint64_t broker_tag = it->second.raw.delivery_tag;
  returned_.erase(it->second.raw.message_id);
  held_.erase(it);
  try {
    consumer_->ack(broker_tag);
  } catch (const BrokerError&) {
    lose_connection();  // redelivered later; the inbox collapses the copy
  }
}

void SubscriptionChannel::return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                                            std::string_view /*error*/) {
  const auto it = held_.find(tag);
  if (it == held_.end() || it->second.return_due || !consumer_)
    return;
  it->second.return_due = Clock::now() + std::max(delay, std::chrono::milliseconds(0));
  try {
    requeue_due_returns();
  } catch (const BrokerError&) {
    lose_connection();
  }
}

void SubscriptionChannel::publish_dead_letter(const Delivery& raw, std::uint32_t deliveries,
                                              std::string_view error) {
  OutgoingMessage letter;
  letter.exchange = publishing_->url().exchange;
  letter.routing_key = route_.dead_letter_destination;
  letter.message_id = raw.message_id;
  letter.content_type = raw.content_type;
  letter.body = raw.body;
  for (const auto& header : raw.headers) {
    if (!is_dead_letter_header(header.first))
      letter.headers.push_back(header);
  }
  letter.headers.emplace_back(std::string(kDeadLetterErrorHeader), std::string(error));
  letter.headers.emplace_back(std::string(kDeadLetterDeliveriesHeader), std::to_string(deliveries));
  std::vector<PublishResult> results;
  try {
    results = publishing_->publish(std::span(&letter, 1));
  } catch (const BrokerError& failure) {
    fail("dead-lettering message '" + raw.message_id + "' to '" + route_.dead_letter_destination +
             "'",
         failure);
  }
  if (results.front().status != PublishStatus::confirmed) {
    throw TransportError(
        "RabbitMQ transport, destination '" + route_.destination + "': dead-lettering message '" +
        raw.message_id + "' to '" + route_.dead_letter_destination + "' was not confirmed (" +
        to_string(results.front().status) + ": " + results.front().detail +
        "); the message stays held and is delivered again after the subscription closes. "
        "Subscribe a group to the dead-letter destination (or declare one) so that it is routed");
  }
}

void SubscriptionChannel::dead_letter(std::uint64_t tag, std::string_view error) {
  const auto it = held_.find(tag);
  if (it == held_.end() || it->second.return_due || !consumer_)
    return;
  publish_dead_letter(it->second.raw, it->second.delivery_count, error);
  const std::uint64_t broker_tag = it->second.raw.delivery_tag;
  returned_.erase(it->second.raw.message_id);
  held_.erase(it);
  try {
    consumer_->ack(broker_tag);
  } catch (const BrokerError&) {
    lose_connection();  // a copy may come again; the dead letter is published already
  }
}

void SubscriptionChannel::close() {
  if (closed_)
    return;
  closed_ = true;
  consumer_.reset();
  connection_.reset();
  held_.clear();
  awaited_.clear();
  ready_.clear();
}

}  // namespace docket::rabbitmq::detail
