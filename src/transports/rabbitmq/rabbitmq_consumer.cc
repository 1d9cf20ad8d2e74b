#include "transports/rabbitmq/rabbitmq_consumer.h"

#include <sys/time.h>

namespace docket::rabbitmq::detail {

Consumer::Consumer(Connection& connection, std::string_view queue, std::uint16_t prefetch)
    : connection_(&connection), queue_(queue), channel_(connection) {
  if (prefetch == 0) {
    throw BrokerError(BrokerErrorKind::protocol,
                      "RabbitMQ broker " + connection.broker() + ": consuming queue '" + queue_ +
                          "' with a prefetch of 0 (unbounded) is not allowed; give 1 to 65535");
  }
  amqp_basic_qos(channel_.state(), channel_.id(), 0, prefetch, 0);
  channel_.check(amqp_get_rpc_reply(channel_.state()),
                 "setting the prefetch to " + std::to_string(prefetch));
  amqp_basic_consume(channel_.state(), channel_.id(), as_bytes(queue_), amqp_empty_bytes, 0, 0, 0,
                     amqp_empty_table);
  channel_.check(amqp_get_rpc_reply(channel_.state()), "consuming queue '" + queue_ + "'");
}

std::optional<Delivery> Consumer::next(std::chrono::milliseconds timeout) {
  const std::string doing = "waiting for a delivery from queue '" + queue_ + "'";
  channel_.require_open(doing);
  amqp_maybe_release_buffers(channel_.state());
  timeval wait{static_cast<time_t>(timeout.count() / 1000),
               static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
  amqp_envelope_t envelope;
  const amqp_rpc_reply_t reply = amqp_consume_message(channel_.state(), &envelope, &wait, 0);
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
      reply.library_error == AMQP_STATUS_TIMEOUT) {
    return std::nullopt;
  }
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
      reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
    // A frame other than basic.deliver came first: a close, or a consumer cancel.
    amqp_frame_t frame;
    check_status(amqp_simple_wait_frame(channel_.state(), &frame), doing);
    if (frame.frame_type != AMQP_FRAME_METHOD)
      return std::nullopt;
    const amqp_method_t& method = frame.payload.method;
    if (method.id == AMQP_CHANNEL_CLOSE_METHOD || method.id == AMQP_CONNECTION_CLOSE_METHOD) {
      channel_.fail_close_method(method, frame.channel, doing);
    }
    if (method.id == AMQP_BASIC_CANCEL_METHOD) {
      throw BrokerError(BrokerErrorKind::not_found,
                        "RabbitMQ broker " + connection_->broker() + ": " + doing +
                            " failed: the broker cancelled the consumer (the queue was deleted); "
                            "declare the queue again and start a new consumer");
    }
    return std::nullopt;  // e.g. a stray basic.ack: nothing for the consumer
  }
  channel_.check(reply, doing);
  Delivery delivery;
  delivery.delivery_tag = envelope.delivery_tag;
  delivery.redelivered = envelope.redelivered != 0;
  delivery.exchange = to_string(envelope.exchange);
  delivery.routing_key = to_string(envelope.routing_key);
  delivery.body = to_string(envelope.message.body);
  const amqp_basic_properties_t& properties = envelope.message.properties;
  if ((properties._flags & AMQP_BASIC_MESSAGE_ID_FLAG) != 0) {
    delivery.message_id = to_string(properties.message_id);
  }
  if ((properties._flags & AMQP_BASIC_CONTENT_TYPE_FLAG) != 0) {
    delivery.content_type = to_string(properties.content_type);
  }
  if ((properties._flags & AMQP_BASIC_HEADERS_FLAG) != 0) {
    delivery.headers = decode_headers(properties.headers);
    delivery.delivery_count = integer_header(properties.headers, "x-delivery-count");
  }
  amqp_destroy_envelope(&envelope);
  return delivery;
}

void Consumer::check_status(int status, std::string_view doing) {
  if (status != AMQP_STATUS_OK)
    connection_->fail_status(status, doing);
}

void Consumer::ack(std::uint64_t delivery_tag) {
  const std::string doing = "acknowledging delivery " + std::to_string(delivery_tag);
  channel_.require_open(doing);
  check_status(amqp_basic_ack(channel_.state(), channel_.id(), delivery_tag, 0), doing);
}

void Consumer::nack(std::uint64_t delivery_tag, bool requeue) {
  const std::string doing = std::string(requeue ? "requeueing" : "dead-lettering") + " delivery " +
                            std::to_string(delivery_tag);
  channel_.require_open(doing);
  check_status(amqp_basic_nack(channel_.state(), channel_.id(), delivery_tag, 0, requeue ? 1 : 0),
               doing);
}

}  // namespace docket::rabbitmq::detail
