#include "rabbitmq_raw_publisher.h"

#include <chrono>
#include <string>

#include "docket/core/error.h"
#include "transports/rabbitmq/rabbitmq_url.h"
#include "transports/rabbitmq/rabbitmq_wire.h"

namespace docket::rabbitmq::detail {
namespace {

BrokerUrl publishing_url(std::string_view text) {
  BrokerUrl url = parse_broker_url(text);
  if (url.exchange.empty()) {
    throw ConfigurationError("RabbitMQ transport " + printable(url) +
                             ": the URL names no exchange; add ?exchange=<name>, the topic "
                             "exchange the bench publishes to");
  }
  return url;
}

}  // namespace

RawPublisher::RawPublisher(std::string_view url, std::span<const TransportMessage> messages)
    : connection_(publishing_url(url)) {
  channel_.emplace(connection_);
  amqp_confirm_select(channel_->state(), channel_->id());
  channel_->check(amqp_get_rpc_reply(channel_->state()), "enabling publisher confirms");
  messages_.reserve(messages.size());
  for (const TransportMessage& message : messages) {
    messages_.push_back(to_outgoing(message, connection_.url().exchange));
  }
}

void RawPublisher::fail(const std::string& problem) const {
  throw InfrastructureError("RabbitMQ broker " + connection_.broker() +
                            " (bench raw side): " + problem);
}

void RawPublisher::publish(bench::ItemRange items, std::size_t batch) {
  if (items.end > messages_.size() || batch == 0) {
    fail("asked to publish messages " + std::to_string(items.begin) + ".." +
         std::to_string(items.end) + " of " + std::to_string(messages_.size()) + " in batches of " +
         std::to_string(batch));
  }
  for (std::size_t first = items.begin; first < items.end; first += batch) {
    publish_batch(first, std::min(batch, items.end - first));
  }
}

void RawPublisher::publish_batch(std::size_t first, std::size_t count) {
  const amqp_connection_state_t state = channel_->state();
  const amqp_channel_t channel = channel_->id();
  const std::uint64_t first_tag = next_tag_;
  for (std::size_t i = first; i < first + count; ++i) {
    const OutgoingMessage& message = messages_[i];
    entries_.clear();
    for (const auto& [name, value] : message.headers) {
      amqp_table_entry_t entry{};
      entry.key = amqp_bytes_t{name.size(), const_cast<char*>(name.data())};
      entry.value.kind = AMQP_FIELD_KIND_UTF8;
      entry.value.value.bytes = amqp_bytes_t{value.size(), const_cast<char*>(value.data())};
      entries_.push_back(entry);
    }
    amqp_basic_properties_t properties{};
    properties._flags =
        AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_HEADERS_FLAG;
    properties.delivery_mode = AMQP_DELIVERY_PERSISTENT;
    properties.message_id =
        amqp_bytes_t{message.message_id.size(), const_cast<char*>(message.message_id.data())};
    properties.headers = amqp_table_t{static_cast<int>(entries_.size()), entries_.data()};
    if (!message.content_type.empty()) {
      properties._flags |= AMQP_BASIC_CONTENT_TYPE_FLAG;
      properties.content_type =
          amqp_bytes_t{message.content_type.size(), const_cast<char*>(message.content_type.data())};
    }
    const int status = amqp_basic_publish(
        state, channel,
        amqp_bytes_t{message.exchange.size(), const_cast<char*>(message.exchange.data())},
        amqp_bytes_t{message.routing_key.size(), const_cast<char*>(message.routing_key.data())},
        /*mandatory=*/1, /*immediate=*/0, &properties,
        amqp_bytes_t{message.body.size(), const_cast<char*>(message.body.data())});
    if (status != AMQP_STATUS_OK) {
      fail("publishing message '" + message.message_id + "' failed: " + amqp_error_string2(status) +
           "; is the broker up?");
    }
    ++next_tag_;
  }
  await_confirms(first_tag, count);
  ++confirm_waits_;
  confirmed_ += count;
}

void RawPublisher::await_confirms(std::uint64_t first_tag, std::size_t count) {
  const amqp_connection_state_t state = channel_->state();
  acked_.assign(count, false);
  std::size_t outstanding = count;
  auto ack = [&](std::uint64_t tag) {
    if (tag >= first_tag && tag < first_tag + count && !acked_[tag - first_tag]) {
      acked_[tag - first_tag] = true;
      --outstanding;
    }
  };
  const auto timeout = connection_.url().connect_timeout;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (outstanding > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      fail(std::to_string(outstanding) + " of " + std::to_string(count) +
           " messages were not confirmed within " + std::to_string(timeout.count()) +
           " ms (URL option connect_timeout_ms); is the broker overloaded or blocked (disk or "
           "memory alarm)?");
    }
    timeval wait{static_cast<time_t>(left.count() / 1'000'000),
                 static_cast<suseconds_t>(left.count() % 1'000'000)};
    amqp_frame_t frame;
    const int status = amqp_simple_wait_frame_noblock(state, &frame, &wait);
    if (status == AMQP_STATUS_TIMEOUT) {
      continue;
    }
    if (status != AMQP_STATUS_OK) {
      fail(std::string("waiting for publisher confirms failed: ") + amqp_error_string2(status));
    }
    if (frame.frame_type != AMQP_FRAME_METHOD) {
      continue;
    }
    const amqp_method_t& method = frame.payload.method;
    if (method.id == AMQP_BASIC_ACK_METHOD) {
      const auto* confirm = static_cast<const amqp_basic_ack_t*>(method.decoded);
      if (confirm->multiple != 0) {
        for (std::uint64_t tag = first_tag; tag <= confirm->delivery_tag && tag < first_tag + count;
             ++tag) {
          ack(tag);
        }
      } else {
        ack(confirm->delivery_tag);
      }
    } else if (method.id == AMQP_BASIC_NACK_METHOD) {
      const auto* nack = static_cast<const amqp_basic_nack_t*>(method.decoded);
      fail("the broker refused message tag " + std::to_string(nack->delivery_tag) +
           " (basic.nack)");
    } else if (method.id == AMQP_BASIC_RETURN_METHOD) {
      const auto* returned = static_cast<const amqp_basic_return_t*>(method.decoded);
      fail("a message to routing key '" + to_string(returned->routing_key) +
           "' was returned unroutable (" + to_string(returned->reply_text) +
           "): the run's queue is gone; was it deleted while the bench ran?");
    } else if (method.id == AMQP_CHANNEL_CLOSE_METHOD ||
               method.id == AMQP_CONNECTION_CLOSE_METHOD) {
      channel_->fail_close_method(method, frame.channel, "waiting for publisher confirms");
    }
  }
  amqp_maybe_release_buffers(state);
}

}  // namespace docket::rabbitmq::detail
