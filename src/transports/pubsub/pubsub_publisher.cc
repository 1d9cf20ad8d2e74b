#include "transports/pubsub/pubsub_publisher.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "transports/pubsub/pubsub_names.h"
#include "transports/pubsub/pubsub_wire.h"

namespace docket::pubsub::detail {
namespace {

constexpr std::size_t kRequestOverheadBytes = 32;  // {"messages":[...]}

// One batch's progress: its encoded messages, their answers, and the keys that failed.
class BatchState {
 public:
  BatchState(std::span<const TransportMessage> batch, const Client& client)
      : batch_(batch),
        client_(client),
        results_(batch.size()),
        encoded_(batch.size()),
        topics_(batch.size()) {
    for (std::size_t i = 0; i < batch.size(); ++i) {
      try {
        topics_[i] = topic_id(client.url().topic_prefix, batch[i].destination);
        encoded_[i] = to_pubsub_message(batch[i], client.url().max_message_bytes);
      } catch (const Error& error) {
        settle(i, PublishResult::failed(PublishStatus::kRefused,
                                        what(i) + " cannot be published: " + error.what()));
      }
    }
  }

  std::string what(std::size_t i) const {
    return client_.describe() + ": message '" + batch_[i].envelope.message_id +
           "' to destination '" + batch_[i].destination + "'";
  }

  void settle(std::size_t i, PublishResult result) {
    if (!result.is_confirmed() && batch_[i].ordering_key)
      failed_keys_.try_emplace(*batch_[i].ordering_key, i);
    results_[i] = std::move(result);
  }

  // Whether an earlier message of i's key was not confirmed: i then waits, unsent.
  bool behind_a_failure(std::size_t i) const {
    if (!batch_[i].ordering_key)
      return false;
    const auto failed = failed_keys_.find(*batch_[i].ordering_key);
    return failed != failed_keys_.end() && failed->second < i;
  }

  void settle_behind_failure(std::size_t i) {
    settle(i, PublishResult::failed(PublishStatus::kRetryable,
                                    what(i) +
                                        " was not sent: an earlier message of its ordering key '" +
                                        *batch_[i].ordering_key +
                                        "' was not confirmed; it is published after that one"));
  }

  // The next request's messages, all to one topic, ascending; empty when all are
  // settled.
  std::vector<std::size_t> next_request() {
    std::vector<std::size_t> request;
    std::optional<std::string> topic;
    std::set<std::string> keys_elsewhere;  // keys with an earlier message on another topic
    std::size_t bytes = kRequestOverheadBytes;
    for (std::size_t i = 0; i < batch_.size(); ++i) {
      if (results_[i])
        continue;
      if (behind_a_failure(i)) {
        settle_behind_failure(i);
        continue;
      }
      const auto& key = batch_[i].ordering_key;
      if (!topic)
        topic = topics_[i];
      if (topics_[i] != *topic || (key && keys_elsewhere.contains(*key))) {
        if (key)
          keys_elsewhere.insert(*key);
        continue;
      }
      if (!request.empty() && (request.size() == kMaxMessagesPerRequest ||
                               bytes + encoded_[i]->request_bytes > kMaxRequestBytes)) {
        // Full: what is left of this topic goes in the next request, after this one.
        if (key)
          keys_elsewhere.insert(*key);
        continue;
      }
      bytes += encoded_[i]->request_bytes;
      request.push_back(i);
    }
    return request;
  }

  const std::string& topic(std::size_t i) const { return topics_[i]; }
  const EncodedMessage& encoded(std::size_t i) const { return *encoded_[i]; }

  std::vector<PublishResult> results() && {
    std::vector<PublishResult> answered;
    answered.reserve(results_.size());
    for (auto& result : results_)
      answered.push_back(std::move(*result));
    return answered;
  }

 private:
  std::span<const TransportMessage> batch_;
  const Client& client_;
  std::vector<std::optional<PublishResult>> results_;
  std::vector<std::optional<EncodedMessage>> encoded_;
  std::vector<std::string> topics_;
  std::map<std::string, std::size_t> failed_keys_;  // key -> its first unconfirmed message
};

}  // namespace

Publisher::Publisher(std::shared_ptr<Topology> topology) : topology_(std::move(topology)) {}

std::vector<PublishResult> Publisher::publish(std::span<const TransportMessage> batch) {
  const Client& client = topology_->client();
  BatchState state(batch, client);
  for (auto request = state.next_request(); !request.empty(); request = state.next_request()) {
    const std::string& topic = state.topic(request.front());
    const auto settle_all = [&](PublishStatus status, const std::string& why) {
      for (std::size_t i : request)
        state.settle(
            i, PublishResult::failed(status, state.what(i) + " (topic '" + topic + "') " + why));
    };
    try {
      const Routability routability = topology_->routable(topic);
      if (routability != Routability::kRoutable) {
        settle_all(
            PublishStatus::kUnroutable,
            std::string("is unroutable: the topic ") +
                (routability == Routability::kNoTopic ? "does not exist" : "has no subscription") +
                ", and Pub/Sub drops what no subscription receives; subscribe a "
                "consumer group to the destination (or PubSubTransport::declare_group)");
        continue;
      }
      nlohmann::json messages = nlohmann::json::array();
      for (std::size_t i : request)
        messages.push_back(state.encoded(i).json);
      const Answer answer = client.call(
          "POST", topology_->topic_path(topic) + ":publish", {{"messages", std::move(messages)}},
          kit::http::Replay::kSafe, client.describe() + ": publishing to topic '" + topic + "'");
      if (answer.http_status == 404) {
        settle_all(PublishStatus::kUnroutable,
                   "is unroutable: the topic does not exist (" + answer.error_text() +
                       "); subscribe a consumer group to the destination");
      } else if (answer.http_status == 403) {
        settle_all(PublishStatus::kRefused,
                   "was refused: " + answer.error_text() +
                       "; grant the account roles/pubsub.publisher on the topic");
      } else if (!answer.ok()) {
        settle_all(PublishStatus::kRetryable,
                   "was not published (" + answer.error_text() + "); it is published again");
      } else if (const auto ids = answer.body.find("messageIds");
                 ids == answer.body.end() || !ids->is_array() || ids->size() != request.size()) {
        settle_all(PublishStatus::kRetryable,
                   "was not confirmed: Pub/Sub answered " + std::to_string(request.size()) +
                       " messages without a message id each; it is published again");
      } else {
        for (std::size_t i : request)
          state.settle(i, PublishResult::confirmed());
      }
    } catch (const InfrastructureError& error) {
      settle_all(PublishStatus::kRetryable,
                 std::string("was not published (it is published again): ") + error.what());
    }
  }
  return std::move(state).results();
}

}  // namespace docket::pubsub::detail
