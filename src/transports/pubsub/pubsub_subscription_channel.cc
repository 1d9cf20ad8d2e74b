#include "transports/pubsub/pubsub_subscription_channel.h"

#include <algorithm>
#include <charconv>
#include <tuple>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/transports/transport.h"
#include "transports/pubsub/pubsub_names.h"
#include "transports/pubsub/pubsub_wire.h"

namespace docket::pubsub::detail {
namespace {

using kit::http::Replay;

constexpr std::chrono::milliseconds kFirstPause{25};
constexpr std::chrono::milliseconds kMaxPause{200};
constexpr std::size_t kMaxRemembered = 10000;
constexpr std::size_t kMaxPullMessages = 1000;  // Pub/Sub's maxMessages

// A Pub/Sub message id as a number, for ordering the emulator's sequential ids; 0 when
// it is not one.
std::uint64_t numeric_id(const std::string& id) {
  std::uint64_t value = 0;
  std::from_chars(id.data(), id.data() + id.size(), value);
  return value;
}

}  // namespace

std::uint32_t DeliveryCounts::seen(const std::string& key) const {
  std::lock_guard lock(mutex_);
  const auto it = counts_.find(key);
  return it == counts_.end() ? 0 : it->second;
}

void DeliveryCounts::record(const std::string& key, std::uint32_t count) {
  std::lock_guard lock(mutex_);
  if (counts_.size() >= kMaxRemembered && !counts_.contains(key))
    counts_.clear();
  counts_[key] = count;
}

void DeliveryCounts::forget(const std::string& key) {
  std::lock_guard lock(mutex_);
  counts_.erase(key);
}

SubscriptionChannel::SubscriptionChannel(std::shared_ptr<Publisher> publisher,
                                         std::shared_ptr<DeliveryCounts> counts,
                                         SubscriptionRoute route)
    : publisher_(std::move(publisher)),
      counts_(std::move(counts)),
      route_(std::move(route)),
      path_(publisher_->topology().subscription_path(route_.subscription)),
      deadlines_([this](std::stop_token stop) { extend_deadlines(std::move(stop)); }) {}

SubscriptionChannel::~SubscriptionChannel() {
  close();
}

std::string SubscriptionChannel::count_key(const std::string& pubsub_id) const {
  return route_.subscription + "/" + pubsub_id;
}

Answer SubscriptionChannel::post(std::string_view method, const nlohmann::json& request) {
  const Client& client = publisher_->topology().client();
  return client.call("POST", path_ + ":" + std::string(method), request, Replay::kSafe,
                     client.describe() + ": " + std::string(method) + " on subscription '" +
                         route_.subscription + "'");
}

void SubscriptionChannel::extend_deadlines(std::stop_token stop) {
  const int deadline = publisher_->topology().client().url().ack_deadline_seconds;
  const auto interval = std::chrono::seconds(deadline) / 3;
  std::unique_lock lock(mutex_);
  while (!stop.stop_requested()) {
    wake_.wait_for(lock, stop, interval, [] { return false; });
    if (stop.stop_requested() || held_.empty())
      continue;
    nlohmann::json ack_ids = nlohmann::json::array();
    for (const auto& [tag, held] : held_)
      ack_ids.push_back(held.ack_id);
    lock.unlock();
    try {
      post("modifyAckDeadline", {{"ackIds", std::move(ack_ids)}, {"ackDeadlineSeconds", deadline}});
    } catch (const Error&) {
      // The server is away: the messages come back to the group once their deadline
      // passes, which is all a lost lease can do.
    }
    lock.lock();
  }
}

std::optional<docket::Delivery> SubscriptionChannel::hand_out_ready() {
  const Clock::time_point now = Clock::now();
  std::vector<std::string> waiting_keys;  // keys behind a returned message
  const auto waits = [&](const std::optional<std::string>& key) {
    return key && std::find(waiting_keys.begin(), waiting_keys.end(), *key) != waiting_keys.end();
  };
  for (auto& [tag, held] : held_) {
    const auto& key = held.message.ordering_key;
    if (held.return_due) {
      if (*held.return_due > now || waits(key)) {
        if (key)
          waiting_keys.push_back(*key);
        continue;
      }
      held.return_due.reset();  // due: delivered again, here
      ++held.delivery_count;
    } else if (held.handed_out) {
      continue;
    }
    if (waits(key))
      continue;
    held.handed_out = true;
    counts_->record(count_key(held.pubsub_id), held.delivery_count);
    return docket::Delivery{.message = held.message,
                            .tag = tag,
                            .delivery_count = held.delivery_count,
                            .redelivered = held.delivery_count > 1};
  }
  return std::nullopt;
}

std::size_t SubscriptionChannel::pull(std::size_t max_messages) {
  const Answer answer = post("pull", {{"maxMessages", std::min(max_messages, kMaxPullMessages)},
                                      {"returnImmediately", true}});
  if (answer.http_status == 404) {
    throw TransportError(publisher_->topology().client().describe() + ": subscription '" +
                         route_.subscription + "' of destination '" + route_.destination +
                         "' no longer exists (" + answer.error_text() +
                         "); subscribe again to create it, or create it (create=false)");
  }
  if (!answer.ok() || !answer.body.contains("receivedMessages"))
    return 0;  // nothing now (or a passing failure): the caller pulls again
  std::vector<nlohmann::json> received = answer.body["receivedMessages"];
  std::stable_sort(received.begin(), received.end(), [](const auto& a, const auto& b) {
    const auto order = [](const nlohmann::json& r) {
      const nlohmann::json& m = r["message"];
      return std::make_tuple(m.value("publishTime", ""), numeric_id(m.value("messageId", "")));
    };
    return order(a) < order(b);
  });
  nlohmann::json undecodable = nlohmann::json::array();
  std::size_t taken = 0;
  for (nlohmann::json& r : received) {
    Held held{.ack_id = r.value("ackId", ""), .pubsub_id = r["message"].value("messageId", "")};
    const std::uint32_t attempt = r.value("deliveryAttempt", 0U);
    held.delivery_count = std::max({attempt, counts_->seen(count_key(held.pubsub_id)) + 1, 1U});
    held.raw = std::move(r["message"]);
    try {
      held.message = from_pubsub_message(held.raw, route_.destination);
    } catch (const InvalidInputError& error) {
      publish_dead_letter(held.raw, held.delivery_count, error.what());
      undecodable.push_back(held.ack_id);
      continue;
    }
    std::lock_guard lock(mutex_);
    held_.emplace(++next_tag_, std::move(held));
    ++taken;
  }
  if (!undecodable.empty())
    acknowledge_ids(std::move(undecodable));
  return taken;
}

std::optional<docket::Delivery> SubscriptionChannel::next(std::chrono::milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  std::chrono::milliseconds pause = kFirstPause;
  while (!closed_) {
    std::size_t room = 0;
    std::optional<Clock::time_point> earliest_return;
    {
      std::lock_guard lock(mutex_);
      if (auto delivery = hand_out_ready())
        return delivery;
      room = route_.prefetch - std::min(route_.prefetch, held_.size());
      for (const auto& [tag, held] : held_) {
        if (held.return_due && (!earliest_return || *held.return_due < *earliest_return))
          earliest_return = held.return_due;
      }
    }
    if (room > 0) {
      try {
        if (pull(room) > 0) {
          pause = kFirstPause;
          continue;
        }
      } catch (const TransportError&) {
        throw;  // what no retry mends: the subscription is gone
      } catch (const InfrastructureError&) {
        // The server is away: nothing this time; the next call tries again.
      }
    }
    const Clock::time_point now = Clock::now();
    if (now >= deadline)
      return std::nullopt;
    Clock::time_point until = std::min(deadline, now + pause);
    if (earliest_return)
      until = std::min(until, *earliest_return);
    std::this_thread::sleep_until(until);
    pause = std::min(kMaxPause, pause * 2);
  }
  return std::nullopt;
}

void SubscriptionChannel::acknowledge_ids(nlohmann::json ack_ids) {
  try {
    post("acknowledge", {{"ackIds", std::move(ack_ids)}});
  } catch (const Error&) {
    // Not acknowledged: delivered again after its deadline; the inbox collapses it.
  }
}

void SubscriptionChannel::acknowledge(std::uint64_t tag) {
  std::string ack_id;
  {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(tag);
    if (it == held_.end() || !it->second.handed_out || it->second.return_due)
      return;  // not held (settled already, or another subscription's)
    ack_id = std::move(it->second.ack_id);
    counts_->forget(count_key(it->second.pubsub_id));
    held_.erase(it);
  }
  acknowledge_ids(nlohmann::json::array({std::move(ack_id)}));
}

void SubscriptionChannel::return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                                            std::string_view /*error*/) {
  std::lock_guard lock(mutex_);
  const auto it = held_.find(tag);
  if (it == held_.end() || !it->second.handed_out || it->second.return_due)
    return;
  it->second.return_due = Clock::now() + std::max(delay, std::chrono::milliseconds(0));
}

void SubscriptionChannel::publish_dead_letter(const nlohmann::json& raw, std::uint32_t deliveries,
                                              std::string_view error) {
  Topology& topology = publisher_->topology();
  const std::string topic =
      topic_id(topology.client().url().topic_prefix, route_.dead_letter_destination);
  nlohmann::json letter = {{"data", raw.value("data", "")}};
  nlohmann::json attributes = raw.value("attributes", nlohmann::json::object());
  attributes[std::string(kDeadLetterErrorHeader)] =
      std::string(error.substr(0, kMaxAttributeValueBytes));
  attributes[std::string(kDeadLetterDeliveriesHeader)] = std::to_string(deliveries);
  letter["attributes"] = std::move(attributes);
  if (raw.contains("orderingKey"))
    letter["orderingKey"] = raw["orderingKey"];
  const std::string what = topology.client().describe() + ", destination '" + route_.destination +
                           "': dead-lettering message '" + raw.value("messageId", "") + "' to '" +
                           route_.dead_letter_destination + "' (topic '" + topic + "')";
  try {
    if (topology.routable(topic) != Routability::kRoutable) {
      throw TransportError(what +
                           " failed: the topic has no subscription, and Pub/Sub would "
                           "drop it; the message stays held and is delivered again after "
                           "the subscription closes. Subscribe a group to the dead-letter "
                           "destination");
    }
    const Answer answer = topology.client().call(
        "POST", topology.topic_path(topic) + ":publish",
        {{"messages", nlohmann::json::array({std::move(letter)})}}, Replay::kSafe, what);
    if (!answer.ok()) {
      throw TransportError(what + " was not confirmed (" + answer.error_text() +
                           "); the message stays held and is delivered again after the "
                           "subscription closes");
    }
  } catch (const InfrastructureError& failure) {
    if (dynamic_cast<const TransportError*>(&failure) != nullptr)
      throw;
    throw TransportError(what + " failed: " + failure.what());
  }
}

void SubscriptionChannel::dead_letter(std::uint64_t tag, std::string_view error) {
  std::string ack_id;
  {
    std::lock_guard lock(mutex_);
    const auto it = held_.find(tag);
    if (it == held_.end() || !it->second.handed_out || it->second.return_due)
      return;
    publish_dead_letter(it->second.raw, it->second.delivery_count, error);
    ack_id = std::move(it->second.ack_id);
    counts_->forget(count_key(it->second.pubsub_id));
    held_.erase(it);
  }
  acknowledge_ids(nlohmann::json::array({std::move(ack_id)}));
}

void SubscriptionChannel::close() {
  if (closed_)
    return;
  closed_ = true;
  deadlines_.request_stop();
  wake_.notify_all();
  if (deadlines_.joinable())
    deadlines_.join();
  nlohmann::json ack_ids = nlohmann::json::array();
  for (const auto& [tag, held] : held_)
    ack_ids.push_back(held.ack_id);
  held_.clear();
  if (ack_ids.empty())
    return;
  try {
    post("modifyAckDeadline", {{"ackIds", std::move(ack_ids)}, {"ackDeadlineSeconds", 0}});
  } catch (const Error&) {
    // Delivered again once their deadline passes instead of now.
  }
}

}  // namespace docket::pubsub::detail
