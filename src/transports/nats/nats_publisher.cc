#include "transports/nats/nats_publisher.h"

#include <chrono>
#include <utility>

namespace docket::nats::detail {
namespace {

using Clock = std::chrono::steady_clock;

// How often a wait for acknowledgements looks whether the connection closed.
constexpr std::chrono::milliseconds kClosedCheck{50};
// JetStream's error codes (nats-server's errors.json).
constexpr jsErrCode kMessageTooLarge = static_cast<jsErrCode>(10054);
constexpr jsErrCode kStreamNotMatch = static_cast<jsErrCode>(10060);

PublishAnswer answer_of(const jsPubAckErr& error) {
  std::string text = error.ErrText != nullptr && *error.ErrText != '\0'
                         ? std::string(error.ErrText)
                         : std::string(natsStatus_GetText(error.Err));
  if (error.ErrCode != 0)
    text += " (JetStream error " + std::to_string(static_cast<int>(error.ErrCode)) + ")";
  if (error.Err == NATS_NO_RESPONDERS || error.ErrCode == kStreamNotMatch)
    return {PublishOutcome::no_stream, text};
  if (error.ErrCode == kMessageTooLarge || error.Err == NATS_MAX_PAYLOAD)
    return {PublishOutcome::too_large, text};
  if (error.ErrCode != 0)
    return {PublishOutcome::rejected, text};
  return {PublishOutcome::lost, text};
}

}  // namespace

const char* to_string(PublishOutcome outcome) noexcept {
  switch (outcome) {
    case PublishOutcome::confirmed:
      return "confirmed";
    case PublishOutcome::no_stream:
      return "no_stream";
    case PublishOutcome::too_large:
      return "too_large";
    case PublishOutcome::rejected:
      return "rejected";
    case PublishOutcome::lost:
      return "lost";
  }
  return "lost";
}

Publisher::Publisher(const ServerUrl& url)
    : connection_(std::make_unique<Connection>(url, PublishAckHandler{&on_ack, this})) {}

Publisher::~Publisher() {
  connection_.reset();
}

void Publisher::on_ack(jsCtx*, natsMsg* message, jsPubAck* ack, jsPubAckErr* error, void* closure) {
  auto* publisher = static_cast<Publisher*>(closure);
  if (ack != nullptr)
    publisher->answer(message, {PublishOutcome::confirmed, {}});
  else if (error != nullptr)
    publisher->answer(message, answer_of(*error));
  natsMsg_Destroy(message);
}

void Publisher::answer(natsMsg* message, PublishAnswer answer) {
  const std::lock_guard lock(mutex_);
  const auto it = in_flight_.find(message);
  if (it == in_flight_.end())
    return;  // not this round's (taken back when its wait ended)
  answers_[it->second] = std::move(answer);
  in_flight_.erase(it);
  if (--unanswered_ == 0)
    answered_.notify_all();  // the round is answered: wake publish() once, not per message
}

std::vector<PublishAnswer> Publisher::publish(std::vector<MsgPtr> messages) {
  {
    const std::lock_guard lock(mutex_);
    in_flight_.clear();
    answers_.assign(messages.size(), std::nullopt);
    unanswered_ = messages.size();
    // Every message is registered before any is sent: the handler may answer the first
    // while the last is still being sent, and pointers stay unique while all are alive.
    for (std::size_t i = 0; i < messages.size(); ++i)
      in_flight_.emplace(messages[i].get(), i);
  }
  for (std::size_t i = 0; i < messages.size(); ++i) {
    natsMsg* raw = messages[i].release();
    natsMsg* sent = raw;
    const natsStatus status = js_PublishMsgAsync(connection_->jetstream(), &raw, nullptr);
    if (status == NATS_OK)
      continue;  // the library owns it now
    // Not taken: answer it here. The handler never sees it.
    PublishAnswer failed{
        status == NATS_MAX_PAYLOAD ? PublishOutcome::too_large : PublishOutcome::lost,
        status_text(status)};
    {
      const std::lock_guard lock(mutex_);
      if (in_flight_.erase(sent) == 1) {
        answers_[i] = std::move(failed);
        --unanswered_;
      }
    }
    natsMsg_Destroy(raw);  // null when the library took it after all
  }
  const Clock::time_point deadline = Clock::now() + connection_->url().timeout;
  std::unique_lock lock(mutex_);
  while (unanswered_ > 0 && Clock::now() < deadline && !connection_->closed()) {
    answered_.wait_until(lock, std::min(deadline, Clock::now() + kClosedCheck));
  }
  if (unanswered_ > 0) {
    // Taken back: their acknowledgements, should they come, are dropped by the client.
    const bool closed = connection_->closed();
    in_flight_.clear();
    lock.unlock();
    natsMsgList pending{};
    if (js_PublishAsyncGetPendingList(&pending, connection_->jetstream()) == NATS_OK)
      natsMsgList_Destroy(&pending);
    lock.lock();
    for (auto& answer : answers_) {
      if (!answer) {
        answer = PublishAnswer{PublishOutcome::lost,
                               closed ? "the connection closed before the stream's "
                                        "acknowledgement came"
                                      : "no acknowledgement from the stream within " +
                                            std::to_string(connection_->url().timeout.count()) +
                                            " ms (the URL's timeout)"};
      }
    }
    unanswered_ = 0;
  }
  std::vector<PublishAnswer> out;
  out.reserve(answers_.size());
  for (auto& answer : answers_)
    out.push_back(std::move(*answer));
  return out;
}

}  // namespace docket::nats::detail
