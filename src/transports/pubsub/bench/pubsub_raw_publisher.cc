#include "pubsub_raw_publisher.h"

#include <algorithm>
#include <utility>

#include "docket/core/error.h"
#include "transports/pubsub/pubsub_names.h"
#include "transports/pubsub/pubsub_url.h"
#include "transports/pubsub/pubsub_wire.h"

namespace docket::pubsub::detail {
namespace {

constexpr std::size_t kRequestOverheadBytes = 32;  // {"messages":[...]}, as the publisher counts

}  // namespace

RawPublisher::RawPublisher(std::string_view url, std::span<const TransportMessage> messages)
    : client_(parse_pubsub_url(url)) {
  messages_.reserve(messages.size());
  for (const TransportMessage& message : messages) {
    EncodedMessage encoded = to_pubsub_message(message, client_.url().max_message_bytes);
    messages_.push_back({.publish_path = client_.url().project_path() + "/topics/" +
                                         topic_id(client_.url().topic_prefix, message.destination) +
                                         ":publish",
                         .message = std::move(encoded.json),
                         .request_bytes = encoded.request_bytes,
                         .message_id = message.envelope.message_id});
  }
}

void RawPublisher::fail(const std::string& problem) const {
  throw InfrastructureError(client_.describe() + " (bench raw side): " + problem);
}

void RawPublisher::publish(bench::ItemRange items, std::size_t batch) {
  if (items.end > messages_.size() || items.begin > items.end || batch == 0) {
    fail("asked to publish messages " + std::to_string(items.begin) + ".." +
         std::to_string(items.end) + " of " + std::to_string(messages_.size()) + " in batches of " +
         std::to_string(batch));
  }
  for (std::size_t first = items.begin; first < items.end; first += batch) {
    publish_batch(first, std::min(items.end, first + batch));
  }
}

void RawPublisher::publish_batch(std::size_t first, std::size_t end) {
  // Pub/Sub orders within a request only: a batch's runs go in batch order, each once
  // the one before it is answered, as docket's publisher sends them.
  std::size_t begin = first;
  std::size_t bytes = kRequestOverheadBytes;
  for (std::size_t i = first; i < end; ++i) {
    const bool full = i > begin && (i - begin == kMaxMessagesPerRequest ||
                                    bytes + messages_[i].request_bytes > kMaxRequestBytes);
    if (full || messages_[i].publish_path != messages_[begin].publish_path) {
      publish_request(begin, i);
      begin = i;
      bytes = kRequestOverheadBytes;
    }
    bytes += messages_[i].request_bytes;
  }
  publish_request(begin, end);
  confirmed_ += end - first;
}

void RawPublisher::publish_request(std::size_t first, std::size_t end) {
  nlohmann::json request = nlohmann::json::array();
  for (std::size_t i = first; i < end; ++i)
    request.push_back(messages_[i].message);
  const std::string& path = messages_[first].publish_path;
  const Answer answer =
      client_.call("POST", path, {{"messages", std::move(request)}}, kit::http::Replay::kSafe,
                   client_.describe() + ": publishing to " + path);
  const std::string what = std::to_string(end - first) + " messages from '" +
                           messages_[first].message_id + "' to " + path;
  if (!answer.ok()) {
    fail(what + " were refused: " + answer.error_text() +
         (answer.http_status == 404 ? "; the run's topic is gone: was it deleted while the "
                                      "bench ran?"
                                    : ""));
  }
  const std::size_t ids = answer.body.contains("messageIds") && answer.body["messageIds"].is_array()
                              ? answer.body["messageIds"].size()
                              : 0;
  if (ids != end - first)
    fail(what + " were not confirmed: the answer carries " + std::to_string(ids) + " message ids");
  ++confirm_waits_;  // one per request: one per batch unless a batch needs two requests
}

}  // namespace docket::pubsub::detail
