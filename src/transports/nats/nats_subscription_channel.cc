#include "transports/nats/nats_subscription_channel.h"

#include <algorithm>
#include <utility>

#include "docket/core/error.h"
#include "docket/transports/delivery.h"
#include "docket/transports/transport.h"
#include "transports/nats/nats_topology.h"
#include "transports/nats/nats_wire.h"

namespace docket::nats::detail {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kFirstBackoff{100};
constexpr milliseconds kMaxBackoff{5000};
constexpr milliseconds kShortestFetch{10};
constexpr milliseconds kShortestInProgressPeriod{50};
constexpr int kCloseFlushMs = 2000;
// A server going down may refuse a client logging in again; a reconnecting subscription
// takes that this many times in a row (with its backoff, about 25 s) before it reports
// it, while its first connect (subscribe()) reports a refused login at once.
constexpr int kRefusedLoginsTolerated = 8;
constexpr std::string_view kNak = "-NAK";
constexpr std::size_t kRememberedReturns = 4096;

// NATS headers carry no line break: an error's are written as spaces.
std::string one_line(std::string_view text) {
  std::string line(text);
  std::replace_if(
      line.begin(), line.end(), [](char c) { return c == '\r' || c == '\n'; }, ' ');
  return line;
}

}  // namespace

SubscriptionChannel::SubscriptionChannel(ServerUrl url, SubscriptionRoute route)
    : url_(std::move(url)), route_(std::move(route)) {
  try {
    const std::lock_guard lock(mutex_);
    connect();
  } catch (const NatsError& error) {
    fail("subscribing", error);
  }
  in_progress_ = std::thread([this] { keep_in_progress(); });
}

SubscriptionChannel::~SubscriptionChannel() {
  close();
}

void SubscriptionChannel::fail(std::string_view doing, const std::exception& error) const {
  throw TransportError("NATS JetStream transport, destination '" + route_.destination +
                       "' (stream '" + url_.stream + "', consumer '" + route_.consumer +
                       "'): " + std::string(doing) + " failed: " + error.what());
}

void SubscriptionChannel::connect() {
  auto connection = std::make_unique<Connection>(url_);
  ensure_stream(*connection);
  ensure_consumer(*connection, {.name = route_.consumer, .filter_subject = route_.destination});
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = url_.timeout.count();
  jsSubOptions subscribe_options;
  jsSubOptions_Init(&subscribe_options);
  subscribe_options.Stream = url_.stream.c_str();
  subscribe_options.Consumer = route_.consumer.c_str();
  natsSubscription* raw = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus status =
      js_PullSubscribe(&raw, connection->jetstream(), route_.destination.c_str(),
                       route_.consumer.c_str(), &options, &subscribe_options, &code);
  SubscriptionPtr subscription(raw);
  connection->check(status, code, "subscribing to consumer '" + route_.consumer + "'");
  // What the lost connection held: redelivered at once rather than after AckWait.
  for (const std::string& reply : to_nak_) {
    natsConnection_Publish(connection->get(), reply.c_str(), kNak.data(),
                           static_cast<int>(kNak.size()));
  }
  if (!to_nak_.empty())
    natsConnection_FlushTimeout(connection->get(), url_.timeout.count());
  to_nak_.clear();
  connection_ = std::move(connection);
  subscription_ = std::move(subscription);
  backoff_ = milliseconds(0);
  refused_logins_ = 0;
}

void SubscriptionChannel::lose_connection() {
  std::vector<std::pair<std::uint64_t, std::string>> replies;
  for (const auto& [tag, held] : held_) {
    if (const char* reply = natsMsg_GetReply(held.raw.get()); reply != nullptr) {
      remember_return(held);
      replies.emplace_back(held.stream_sequence, reply);
    }
  }
  std::sort(replies.begin(), replies.end());
  for (auto& [sequence, reply] : replies)
    to_nak_.push_back(std::move(reply));
  held_.clear();
  ready_.clear();
  subscription_.reset();
  connection_.reset();
  backoff_ = std::min(kMaxBackoff, std::max(kFirstBackoff, backoff_ * 2));
  next_connect_ = Clock::now() + backoff_;
}

std::optional<SubscriptionChannel::Clock::time_point> SubscriptionChannel::earliest_return() const {
  std::optional<Clock::time_point> earliest;
  for (const auto& [tag, held] : held_) {
    if (held.return_due && (!earliest || *held.return_due < *earliest))
      earliest = held.return_due;
  }
  return earliest;
}

bool SubscriptionChannel::behind_a_return(const std::optional<std::string>& key,
                                          std::uint64_t tag) const {
  if (!key)
    return false;
  return std::any_of(held_.begin(), held_.end(), [&](const auto& entry) {
    return entry.first != tag && entry.second.message.ordering_key == key &&
           (entry.second.return_due || entry.second.held_back);
  });
}

void SubscriptionChannel::nak_in_order(const std::vector<natsMsg*>& messages) const {
  // JetStream processes one consumer's acknowledgements in order: the last Nak is a
  // request, answered once the server took it, so that every Nak is queued for
  // redelivery before this channel's next pull, which would otherwise race them and be
  // served a later message first.
  for (std::size_t i = 0; i + 1 < messages.size(); ++i)
    natsMsg_Nak(messages[i], nullptr);
  if (messages.empty())
    return;
  const char* reply = natsMsg_GetReply(messages.back());
  natsMsg* answer = nullptr;
  if (reply == nullptr ||
      natsConnection_Request(&answer, connection_->get(), reply, kNak.data(),
                             static_cast<int>(kNak.size()), url_.timeout.count()) != NATS_OK)
    natsMsg_Nak(messages.back(), nullptr);  // unanswered: sent again, as a plain Nak
  natsMsg_Destroy(answer);
}

void SubscriptionChannel::remember_return(const Held& held) {
  if (held.stream_sequence == 0)
    return;  // no metadata: nothing to match a redelivery by
  std::uint32_t& count = returned_counts_[held.stream_sequence];
  count = std::max(count, held.delivery_count);
  if (returned_counts_.size() > kRememberedReturns)
    returned_counts_.erase(returned_counts_.begin());
}

void SubscriptionChannel::forget_return(const Held& held) {
  returned_counts_.erase(held.stream_sequence);
}

void SubscriptionChannel::requeue_due_returns() {
  const Clock::time_point now = Clock::now();
  for (auto it = held_.begin(); it != held_.end();) {
    if (!it->second.return_due || *it->second.return_due > now) {
      ++it;
      continue;
    }
    // The returned delivery first, then every later one of its key the channel holds and
    // has not handed out, in stream order: JetStream redelivers Nak'd messages in the
    // order of their Naks, before anything new.
    std::vector<std::uint64_t> tags = {it->first};
    if (const std::optional<std::string> key = it->second.message.ordering_key) {
      std::vector<std::pair<std::uint64_t, std::uint64_t>> later;  // stream sequence, tag
      for (const auto& [tag, held] : held_) {
        if (!held.handed_out && held.message.ordering_key == key)
          later.emplace_back(held.stream_sequence, tag);
      }
      std::sort(later.begin(), later.end());
      for (const auto& [sequence, tag] : later)
        tags.push_back(tag);
    }
    std::vector<natsMsg*> messages;
    for (const std::uint64_t tag : tags) {
      remember_return(held_.at(tag));
      messages.push_back(held_.at(tag).raw.get());
    }
    nak_in_order(messages);
    for (const std::uint64_t tag : tags) {
      ready_.erase(std::remove(ready_.begin(), ready_.end(), tag), ready_.end());
      held_.erase(tag);
    }
    it = held_.begin();  // the map changed: look again from the start
  }
}

void SubscriptionChannel::take(MsgPtr raw) {
  jsMsgMetaData* raw_meta = nullptr;
  const MetaDataPtr meta(natsMsg_GetMetaData(&raw_meta, raw.get()) == NATS_OK ? raw_meta : nullptr);
  Held held{.raw = nullptr,
            .message = {},
            .stream_sequence = meta ? meta->Sequence.Stream : 0,
            .delivery_count = meta ? static_cast<std::uint32_t>(
                                         std::min<std::uint64_t>(meta->NumDelivered, UINT32_MAX))
                                   : 1,
            .return_due = std::nullopt,
            .touched = Clock::now()};
  if (const auto returned = returned_counts_.find(held.stream_sequence);
      returned != returned_counts_.end() && held.delivery_count <= returned->second)
    held.delivery_count = returned->second + 1;
  try {
    held.message = from_nats_message(raw.get());
  } catch (const InvalidInputError& error) {
    publish_dead_letter(raw.get(), held.stream_sequence, held.delivery_count, error.what());
    natsMsg_Term(raw.get(), nullptr);
    returned_counts_.erase(held.stream_sequence);
    return;
  }
  held.raw = std::move(raw);
  const std::uint64_t tag = ++next_tag_;
  held_.emplace(tag, std::move(held));
  ready_.push_back(tag);
}

std::optional<docket::Delivery> SubscriptionChannel::hand_out() {
  while (!ready_.empty()) {
    const std::uint64_t tag = ready_.front();
    ready_.pop_front();
    const auto it = held_.find(tag);
    if (it == held_.end())
      continue;
    if (behind_a_return(it->second.message.ordering_key, tag)) {
      it->second.held_back = true;  // Nak'd right after the return it waits behind
      continue;
    }
    it->second.handed_out = true;
    return docket::Delivery{.message = it->second.message,
                            .tag = tag,
                            .delivery_count = it->second.delivery_count,
                            .redelivered = it->second.delivery_count > 1};
  }
  return std::nullopt;
}

void SubscriptionChannel::fetch(std::size_t room, Clock::time_point until) {
  const auto timeout =
      std::max(kShortestFetch, std::chrono::duration_cast<milliseconds>(until - Clock::now()));
  MsgList list;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus status = natsSubscription_Fetch(list.get(), subscription_.get(),
                                                   static_cast<int>(room), timeout.count(), &code);
  if (status == NATS_TIMEOUT)
    return;
  if (status != NATS_OK) {
    // A failed fetch ("Server Shutdown", a deleted consumer, a closed connection) is
    // retried on a new connection, whose subscribing says what cannot be retried.
    connection_->fail(
        NatsErrorKind::connection_lost, "fetching from consumer '" + route_.consumer + "'",
        status_text(status) +
            (code != 0 ? " (JetStream error " + std::to_string(static_cast<int>(code)) + ")"
                       : std::string()));
  }
  const std::lock_guard lock(mutex_);
  for (int i = 0; i < list.size(); ++i)
    take(list.take(i));
}

std::optional<docket::Delivery> SubscriptionChannel::next(milliseconds wait) {
  const Clock::time_point deadline = Clock::now() + wait;
  while (!closed_) {
    try {
      if (!connection_) {
        if (Clock::now() < next_connect_) {
          std::this_thread::sleep_until(std::min(deadline, next_connect_));
          if (Clock::now() >= deadline)
            return std::nullopt;
        }
        const std::lock_guard lock(mutex_);
        connect();
      }
      std::optional<Clock::time_point> due;
      std::size_t held = 0;
      {
        const std::lock_guard lock(mutex_);
        requeue_due_returns();
        if (auto delivery = hand_out())
          return delivery;
        due = earliest_return();
        held = held_.size();
      }
      const Clock::time_point now = Clock::now();
      if (now >= deadline)
        return std::nullopt;
      const Clock::time_point until = due ? std::min(deadline, *due) : deadline;
      if (held >= route_.prefetch) {
        // Full: nothing comes in until a settle (this thread's) or a return falls due.
        std::this_thread::sleep_until(until);
        continue;
      }
      fetch(route_.prefetch - held, until);
    } catch (const NatsError& error) {
      const bool refused_login = error.kind() == NatsErrorKind::authentication;
      if (!error.reconnect_may_help() &&
          !(refused_login && ++refused_logins_ <= kRefusedLoginsTolerated))
        fail("consuming", error);
      const std::lock_guard lock(mutex_);
      lose_connection();
    }
  }
  return std::nullopt;
}

void SubscriptionChannel::acknowledge(std::uint64_t tag) {
  const std::lock_guard lock(mutex_);
  const auto it = held_.find(tag);
  if (it == held_.end() || !it->second.handed_out || it->second.return_due)
    return;  // not held (settled, or its connection was lost: the server redelivers it)
  natsMsg_Ack(it->second.raw.get(), nullptr);
  forget_return(it->second);
  held_.erase(it);
}

void SubscriptionChannel::return_with_delay(std::uint64_t tag, milliseconds delay,
                                            std::string_view error) {
  {
    const std::lock_guard lock(mutex_);
    const auto it = held_.find(tag);
    if (it == held_.end() || !it->second.handed_out || it->second.return_due)
      return;
    const bool last = url_.max_deliver && it->second.delivery_count >= *url_.max_deliver;
    if (!last) {
      it->second.return_due = Clock::now() + std::max(delay, milliseconds(0));
      requeue_due_returns();
      return;
    }
  }
  // JetStream would never deliver it again (the consumer's MaxDeliver): it goes where a
  // message the handler gave up on goes, with the error it failed with.
  dead_letter(tag, error);
}

void SubscriptionChannel::publish_dead_letter(natsMsg* raw, std::uint64_t stream_sequence,
                                              std::uint32_t deliveries, std::string_view error) {
  std::vector<MessageHeader> headers;
  for (MessageHeader& header : headers_of(raw)) {
    if (!is_nats_header(header.name) && header.name != kDeadLetterErrorHeader &&
        header.name != kDeadLetterDeliveriesHeader)
      headers.push_back(std::move(header));
  }
  headers.push_back({std::string(kDeadLetterErrorHeader), one_line(error)});
  headers.push_back({std::string(kDeadLetterDeliveriesHeader), std::to_string(deliveries)});
  // Its own id in the duplicate window (the message's id is taken there by the message
  // itself): the same delivery dead-lettered twice, after a crash between the copy and
  // the Term, is stored once.
  headers.push_back({std::string(kMsgIdHeader),
                     "dead-letter:" + url_.stream + ":" + std::to_string(stream_sequence)});
  headers.push_back({std::string(kExpectedStreamHeader), url_.stream});
  const char* data = natsMsg_GetData(raw);
  const std::string message_id = [&] {
    const char* id = nullptr;
    return natsMsgHeader_Get(raw, std::string(kMsgIdHeader).c_str(), &id) == NATS_OK && id
               ? std::string(id)
               : "at stream sequence " + std::to_string(stream_sequence);
  }();
  const std::string doing =
      "dead-lettering message '" + message_id + "' to '" + route_.dead_letter_destination + "'";
  MsgPtr letter;
  try {
    letter = make_message(route_.dead_letter_destination,
                          std::string_view(data == nullptr ? "" : data,
                                           static_cast<std::size_t>(natsMsg_GetDataLength(raw))),
                          headers);
  } catch (const InvalidInputError& invalid) {
    fail(doing, invalid);
  }
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MaxWait = url_.timeout.count();
  jsPubAck* raw_ack = nullptr;
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus status =
      js_PublishMsg(&raw_ack, connection_->jetstream(), letter.get(), &options, &code);
  jsPubAck_Destroy(raw_ack);
  if (status != NATS_OK) {
    throw TransportError(
        "NATS JetStream transport, destination '" + route_.destination + "': " + doing +
        " was not acknowledged by the stream (" + status_text(status) +
        (code != 0 ? ", JetStream error " + std::to_string(static_cast<int>(code)) : "") +
        "); the message stays held and is delivered again after the subscription closes. "
        "Make stream '" +
        url_.stream +
        "' take the dead-letter destination's subject (e.g. subject=" + route_.destination + ".>)");
  }
}

void SubscriptionChannel::dead_letter(std::uint64_t tag, std::string_view error) {
  const std::lock_guard lock(mutex_);
  const auto it = held_.find(tag);
  if (it == held_.end() || !it->second.handed_out || !connection_)
    return;
  publish_dead_letter(it->second.raw.get(), it->second.stream_sequence, it->second.delivery_count,
                      error);
  natsMsg_Term(it->second.raw.get(), nullptr);
  forget_return(it->second);
  held_.erase(it);
}

void SubscriptionChannel::keep_in_progress() {
  const milliseconds period = std::max(kShortestInProgressPeriod, url_.ack_wait / 3);
  std::unique_lock lock(mutex_);
  while (!stop_in_progress_) {
    stopping_.wait_for(lock, period / 2);
    const Clock::time_point now = Clock::now();
    for (auto& [tag, held] : held_) {
      if (now - held.touched >= period) {
        natsMsg_InProgress(held.raw.get(), nullptr);
        held.touched = now;
      }
    }
  }
}

void SubscriptionChannel::close() {
  if (closed_)
    return;
  closed_ = true;
  {
    const std::lock_guard lock(mutex_);
    stop_in_progress_ = true;
  }
  stopping_.notify_all();
  if (in_progress_.joinable())
    in_progress_.join();
  const std::lock_guard lock(mutex_);
  if (connection_ && !connection_->closed()) {
    // Returned at once, in stream order, rather than after AckWait.
    std::vector<std::pair<std::uint64_t, natsMsg*>> held;
    for (const auto& [tag, entry] : held_)
      held.emplace_back(entry.stream_sequence, entry.raw.get());
    std::sort(held.begin(), held.end());
    std::vector<natsMsg*> messages;
    for (const auto& [sequence, raw] : held)
      messages.push_back(raw);
    nak_in_order(messages);
    natsConnection_FlushTimeout(connection_->get(), kCloseFlushMs);
  }
  held_.clear();
  ready_.clear();
  subscription_.reset();
  connection_.reset();
}

}  // namespace docket::nats::detail
