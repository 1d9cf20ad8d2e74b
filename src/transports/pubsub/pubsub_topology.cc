#include "transports/pubsub/pubsub_topology.h"

#include <utility>

#include "docket/core/error.h"

namespace docket::pubsub::detail {
namespace {

using kit::http::Replay;

constexpr int kPolicyMaxDeliveryAttempts = 100;  // Pub/Sub's largest

}  // namespace

Topology::Topology(std::shared_ptr<const Client> client) : client_(std::move(client)) {}

std::string Topology::topic_path(const std::string& topic) const {
  return client_->url().project_path() + "/topics/" + topic;
}

std::string Topology::subscription_path(const std::string& subscription) const {
  return client_->url().project_path() + "/subscriptions/" + subscription;
}

void Topology::ensure_topic(const std::string& topic) {
  {
    std::lock_guard lock(mutex_);
    if (known_topics_.contains(topic))
      return;
  }
  const std::string what = client_->describe() + ": topic '" + topic + "'";
  const bool create = client_->url().create;
  const Answer answer = create ? client_->call("PUT", topic_path(topic), nlohmann::json::object(),
                                               Replay::kSafe, what + ", creating it")
                               : client_->call("GET", topic_path(topic), nullptr, Replay::kSafe,
                                               what + ", checking it");
  if (!answer.ok() && !(create && answer.status == "ALREADY_EXISTS")) {
    if (!create && answer.http_status == 404) {
      throw ConfigurationError(what +
                               " does not exist, and the URL says create=false: create it "
                               "(gcloud pubsub topics create " +
                               topic + " --project=" + client_->url().project +
                               ") or allow docket to (create=true)");
    }
    throw ConfigurationError(what + ": " + answer.error_text() +
                             (answer.http_status == 403
                                  ? "; the account may not create or read it: grant it "
                                    "roles/pubsub.editor, or create the topic and set create=false"
                                  : ""));
  }
  std::lock_guard lock(mutex_);
  known_topics_.insert(topic);
}

bool Topology::ensure_subscription(const std::string& subscription, const std::string& topic,
                                   const std::string& dead_letter_topic) {
  const std::string what = client_->describe() + ": subscription '" + subscription + "'";
  Answer answer;
  if (client_->url().create) {
    ensure_topic(topic);
    ensure_topic(dead_letter_topic);
    const nlohmann::json request = {{"topic", topic_path(topic)},
                                    {"ackDeadlineSeconds", client_->url().ack_deadline_seconds},
                                    {"enableMessageOrdering", true},
                                    {"deadLetterPolicy",
                                     {{"deadLetterTopic", topic_path(dead_letter_topic)},
                                      {"maxDeliveryAttempts", kPolicyMaxDeliveryAttempts}}}};
    answer = client_->call("PUT", subscription_path(subscription), request, Replay::kSafe,
                           what + ", creating it");
  }
  if (!client_->url().create || answer.status == "ALREADY_EXISTS") {
    answer = client_->call("GET", subscription_path(subscription), nullptr, Replay::kSafe,
                           what + ", checking it");
  }
  if (!answer.ok()) {
    if (answer.http_status == 404) {
      throw ConfigurationError(
          what +
          " does not exist, and the URL says create=false: create it (gcloud pubsub "
          "subscriptions create " +
          subscription + " --topic=" + topic + " --enable-message-ordering --project=" +
          client_->url().project + ") or allow docket to (create=true)");
    }
    throw ConfigurationError(what + ": " + answer.error_text());
  }
  if (answer.body.value("topic", "") != topic_path(topic)) {
    throw ConfigurationError(what + " exists on topic '" + answer.body.value("topic", "") +
                             "', not on '" + topic_path(topic) +
                             "'; delete it or choose another consumer group");
  }
  std::lock_guard lock(mutex_);
  known_topics_.insert(topic);
  routable_topics_.insert(topic);
  return answer.body.contains("deadLetterPolicy");
}

Routability Topology::routable(const std::string& topic) {
  {
    std::lock_guard lock(mutex_);
    if (routable_topics_.contains(topic))
      return Routability::kRoutable;
  }
  const Answer answer =
      client_->call("GET", topic_path(topic) + "/subscriptions?pageSize=1", nullptr, Replay::kSafe,
                    client_->describe() + ": listing the subscriptions of topic '" + topic + "'");
  if (answer.http_status == 404)
    return Routability::kNoTopic;
  // An account that may publish but not list cannot know; :publish answers for the topic.
  const bool may_not_list = answer.http_status == 403;
  if (!answer.ok() && !may_not_list) {
    throw InfrastructureError(client_->describe() + ": listing the subscriptions of topic '" +
                              topic + "' failed: " + answer.error_text());
  }
  if (!may_not_list &&
      (!answer.body.contains("subscriptions") || answer.body["subscriptions"].empty()))
    return Routability::kNoSubscription;
  std::lock_guard lock(mutex_);
  routable_topics_.insert(topic);
  return Routability::kRoutable;
}

}  // namespace docket::pubsub::detail
