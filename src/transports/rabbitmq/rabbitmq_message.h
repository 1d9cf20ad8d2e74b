// The messages the RabbitMQ layer publishes and delivers, and their AMQP headers
// table. Headers are (name, value) strings: published as long strings ('S'); on
// delivery every string, integer, boolean and decimal-free scalar comes back as text
// (a header another producer wrote as a nested table or array is left out), so that a
// message docket published arrives with the headers it was given.
//
// Thread-safety: values; the functions are pure.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_MESSAGE_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_MESSAGE_H_

#include <amqp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace docket::rabbitmq::detail {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct OutgoingMessage {
  std::string exchange;
  std::string routing_key;
  std::string message_id;    // required: returns are matched to their message by it
  std::string content_type;  // empty: not set
  HeaderList headers;
  std::string body;
};

struct Delivery {
  std::uint64_t delivery_tag = 0;  // what ack/nack name, on the consumer's channel
  bool redelivered = false;        // the broker delivered it before (to any consumer)
  // How many times it was delivered before: the x-delivery-count header a quorum queue
  // sets (or any producer's integer header of that name); empty when there is none.
  std::optional<std::int64_t> delivery_count;
  std::string exchange;
  std::string routing_key;
  std::string message_id;
  std::string content_type;
  HeaderList headers;
  std::string body;
};

// An amqp_table_t whose entries view `headers` (valid while `headers` and the returned
// entries live).
struct EncodedHeaders {
  std::vector<amqp_table_entry_t> entries;
  amqp_table_t table() noexcept;
};
EncodedHeaders encode_headers(const HeaderList& headers);

// The bytes `headers` take in a content header frame's properties.
std::size_t encoded_headers_size(const HeaderList& headers);

HeaderList decode_headers(const amqp_table_t& table);

// The integer value of header `name` in `table`, when it has one.
std::optional<std::int64_t> integer_header(const amqp_table_t& table, std::string_view name);

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_MESSAGE_H_
