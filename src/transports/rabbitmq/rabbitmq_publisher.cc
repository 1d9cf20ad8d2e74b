#include "transports/rabbitmq/rabbitmq_publisher.h"

#include <map>

namespace docket::rabbitmq::detail {
namespace {

constexpr std::size_t kShortStringMax = 255;

// The bytes of a content header frame carrying `message`'s properties: frame header
// (7) and end (1), class, weight, body size and flags (14), then the properties set.
std::size_t header_frame_size(const OutgoingMessage& message) {
  return 7 + 1 + 14 + (1 + message.content_type.size()) + encoded_headers_size(message.headers) +
         1 + (1 + message.message_id.size());
}

}  // namespace

const char* to_string(PublishStatus status) noexcept {
  switch (status) {
    case PublishStatus::confirmed:
      return "confirmed";
    case PublishStatus::nacked:
      return "nacked";
    case PublishStatus::returned:
      return "returned";
    case PublishStatus::refused:
      return "refused";
    case PublishStatus::failed:
      return "failed";
    case PublishStatus::connection_lost:
      return "connection_lost";
  }
  return "failed";
}

Publisher::Publisher(Connection& connection) : connection_(&connection) {
  open_channel();
}

void Publisher::open_channel() {
  channel_.reset();
  channel_.emplace(*connection_);
  amqp_confirm_select(channel_->state(), channel_->id());
  channel_->check(amqp_get_rpc_reply(channel_->state()), "enabling publisher confirms");
  next_delivery_tag_ = 1;
}

std::optional<std::string> Publisher::refusal(const OutgoingMessage& message) const {
  const std::string what = "message '" + message.message_id + "'";
  if (message.message_id.empty())
    return "the message has no message id; give every message one";
  if (message.message_id.size() > kShortStringMax) {
    return "its message id is " + std::to_string(message.message_id.size()) +
           " bytes; AMQP allows at most 255";
  }
  if (message.exchange.size() > kShortStringMax || message.routing_key.size() > kShortStringMax ||
      message.content_type.size() > kShortStringMax) {
    return what + " has an exchange, routing key or content type over AMQP's 255 bytes";
  }
  for (const auto& header : message.headers) {
    if (header.first.empty() || header.first.size() > kShortStringMax) {
      return what + " has a header name of " + std::to_string(header.first.size()) +
             " bytes; AMQP header names are 1 to 255 bytes";
    }
  }
  const std::uint64_t limit = connection_->url().max_message_size;
  if (message.body.size() > limit) {
    return what + " is " + std::to_string(message.body.size()) +
           " bytes, over the broker's max_message_size of " + std::to_string(limit) +
           " bytes (URL option max_message_size); it was not sent: make it smaller, or raise "
           "the broker's limit and the URL's option together";
  }
  const std::size_t header_size = header_frame_size(message);
  const auto frame_max = static_cast<std::size_t>(connection_->frame_max());
  if (header_size > frame_max) {
    return what + "'s properties and headers take " + std::to_string(header_size) +
           " bytes, over the frame size of " + std::to_string(frame_max) +
           " bytes agreed with the broker (URL option frame_max); it was not sent: carry less in "
           "headers";
  }
  return std::nullopt;
}

std::vector<PublishResult> Publisher::publish(std::span<const OutgoingMessage> batch,
                                              std::chrono::milliseconds confirm_timeout) {
  const std::string doing = "publishing a batch of " + std::to_string(batch.size());
  connection_->require_alive(doing);
  if (!channel_ || !channel_->open())
    open_channel();
  std::vector<PublishResult> results(batch.size());
  std::map<std::uint64_t, std::size_t> pending;  // delivery tag -> index in batch

  // Every message still without an outcome gets `status` and `detail`.
  auto settle_rest = [&](PublishStatus status, const std::string& detail, std::size_t unsent_from) {
    for (const auto& [tag, index] : pending) {
      if (results[index].status != PublishStatus::returned)
        results[index] = {status, detail};
    }
    for (std::size_t i = unsent_from; i < batch.size(); ++i) {
      if (results[i].status != PublishStatus::refused) {
        results[i] = {status, "not sent: " + detail};
      }
    }
    pending.clear();
  };

  for (std::size_t i = 0; i < batch.size(); ++i) {
    const OutgoingMessage& message = batch[i];
    if (auto why = refusal(message)) {
      results[i] = {PublishStatus::refused,
                    "RabbitMQ broker " + connection_->broker() + ": " + *why};
      continue;
    }
    EncodedHeaders headers = encode_headers(message.headers);
    amqp_basic_properties_t properties{};
    properties._flags =
        AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_HEADERS_FLAG;
    properties.delivery_mode = AMQP_DELIVERY_PERSISTENT;
    properties.message_id = as_bytes(message.message_id);
    properties.headers = headers.table();
    if (!message.content_type.empty()) {
      properties._flags |= AMQP_BASIC_CONTENT_TYPE_FLAG;
      properties.content_type = as_bytes(message.content_type);
    }
    const int status = amqp_basic_publish(channel_->state(), channel_->id(),
                                          as_bytes(message.exchange), as_bytes(message.routing_key),
                                          1, 0, &properties, as_bytes(message.body));
    if (status == AMQP_STATUS_TABLE_TOO_BIG) {  // nothing of it was sent
      results[i] = {PublishStatus::refused, "RabbitMQ broker " + connection_->broker() +
                                                ": message '" + message.message_id +
                                                "': its headers do not fit in one frame"};
      continue;
    }
    if (status != AMQP_STATUS_OK) {
      try {
        connection_->fail_status(status, doing);
      } catch (const BrokerError& error) {
        // The message may have been partly written: its outcome is unknown too.
        pending.emplace(next_delivery_tag_++, i);
        settle_rest(PublishStatus::connection_lost, error.what(), i + 1);
        return results;
      }
    }
    pending.emplace(next_delivery_tag_++, i);
    results[i] = {PublishStatus::connection_lost, "no confirm received"};
  }

  // The confirm of `tag` (and, when `multiple`, of every earlier tag) settles them.
  auto settle = [&](std::uint64_t tag, bool multiple, PublishStatus status,
                    const std::string& detail) {
    const auto begin = multiple ? pending.begin() : pending.find(tag);
    if (begin == pending.end())
      return;
    const auto stop = multiple ? pending.upper_bound(tag) : std::next(begin);
    for (auto it = begin; it != stop; ++it) {
      PublishResult& result = results[it->second];
      if (result.status != PublishStatus::returned)
        result = {status, detail};
    }
    pending.erase(begin, stop);
  };

  const auto deadline = std::chrono::steady_clock::now() + confirm_timeout;
  while (!pending.empty()) {
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      try {
        connection_->fail_status(AMQP_STATUS_TIMEOUT, doing + ": waiting " +
                                                          std::to_string(confirm_timeout.count()) +
                                                          " ms for publisher confirms");
      } catch (const BrokerError& error) {
        settle_rest(PublishStatus::connection_lost, error.what(), batch.size());
      }
      break;
    }
    timeval wait{static_cast<time_t>(left.count() / 1'000'000),
                 static_cast<suseconds_t>(left.count() % 1'000'000)};
    amqp_frame_t frame;
    const int status = amqp_simple_wait_frame_noblock(channel_->state(), &frame, &wait);
    if (status == AMQP_STATUS_TIMEOUT)
      continue;
    try {
      if (status != AMQP_STATUS_OK)
        connection_->fail_status(status, doing);
      if (frame.frame_type != AMQP_FRAME_METHOD)
        continue;
      const amqp_method_t& method = frame.payload.method;
      if (method.id == AMQP_BASIC_ACK_METHOD) {
        const auto* ack = static_cast<const amqp_basic_ack_t*>(method.decoded);
        settle(ack->delivery_tag, ack->multiple != 0, PublishStatus::confirmed, "");
      } else if (method.id == AMQP_BASIC_NACK_METHOD) {
        const auto* nack = static_cast<const amqp_basic_nack_t*>(method.decoded);
        settle(nack->delivery_tag, nack->multiple != 0, PublishStatus::nacked,
               "RabbitMQ broker " + connection_->broker() +
                   " refused the message (basic.nack); publish it again later");
      } else if (method.id == AMQP_BASIC_RETURN_METHOD) {
        const auto* returned = static_cast<const amqp_basic_return_t*>(method.decoded);
        const std::string detail = "RabbitMQ broker " + connection_->broker() +
                                   " returned it: " + std::to_string(returned->reply_code) + " " +
                                   to_string(returned->reply_text) + " (exchange '" +
                                   to_string(returned->exchange) + "', routing key '" +
                                   to_string(returned->routing_key) +
                                   "'): bind a queue for that routing key";
        amqp_message_t content;
        channel_->check(amqp_read_message(channel_->state(), frame.channel, &content, 0),
                        doing + ": reading a returned message");
        const std::string message_id = (content.properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG) != 0
                                           ? to_string(content.properties.message_id)
                                           : std::string();
        amqp_destroy_message(&content);
        for (const auto& [tag, index] : pending) {
          if (batch[index].message_id == message_id &&
              results[index].status != PublishStatus::returned) {
            results[index] = {PublishStatus::returned, detail};
            break;
          }
        }
      } else if (method.id == AMQP_CHANNEL_CLOSE_METHOD ||
                 method.id == AMQP_CONNECTION_CLOSE_METHOD) {
        channel_->fail_close_method(method, frame.channel, doing);
      }
    } catch (const ConnectionLost& error) {
      settle_rest(PublishStatus::connection_lost, error.what(), batch.size());
    } catch (const BrokerError& error) {
      settle_rest(connection_->alive() ? PublishStatus::failed : PublishStatus::connection_lost,
                  error.what(), batch.size());
    }
  }
  amqp_maybe_release_buffers(channel_->state());
  return results;
}

}  // namespace docket::rabbitmq::detail
