#include "transports/rabbitmq/rabbitmq_topology.h"

#include <vector>

#include "docket/core/error.h"

namespace docket::rabbitmq::detail {
namespace {

void require_names(const Connection& connection, const Topology& topology) {
  auto refuse = [&](const std::string& problem) {
    throw ConfigurationError("RabbitMQ broker " + connection.broker() + ": topology " + problem);
  };
  if (topology.exchange.empty())
    refuse("has no exchange; name one (URL option exchange=)");
  if (topology.queue.empty())
    refuse("has no queue; name the queue consumers read");
  if (topology.dead_letter_exchange.empty() != topology.dead_letter_queue.empty()) {
    refuse("names only one of the dead-letter exchange and queue; name both or neither");
  }
}

void exchange(Connection& connection, const std::string& name, const char* type, bool passive) {
  Channel channel(connection);
  amqp_exchange_declare(channel.state(), channel.id(), as_bytes(name), as_bytes(type), passive, 1,
                        0, 0, amqp_empty_table);
  channel.check(amqp_get_rpc_reply(channel.state()),
                std::string(passive ? "checking (passively) " : "declaring ") + type +
                    " exchange '" + name + "' in vhost '" + connection.url().vhost + "'");
}

void queue(Connection& connection, const std::string& name, const Topology& topology,
           bool dead_lettered, bool passive) {
  std::vector<amqp_table_entry_t> arguments;
  auto add_text = [&](const char* key, const std::string& value) {
    amqp_table_entry_t entry{};
    entry.key = amqp_cstring_bytes(key);
    entry.value.kind = AMQP_FIELD_KIND_UTF8;
    entry.value.value.bytes = as_bytes(value);
    arguments.push_back(entry);
  };
  const std::string quorum = "quorum";
  if (topology.quorum_queue)
    add_text("x-queue-type", quorum);
  if (dead_lettered)
    add_text("x-dead-letter-exchange", topology.dead_letter_exchange);
  amqp_table_t table{static_cast<int>(arguments.size()),
                     arguments.empty() ? nullptr : arguments.data()};
  Channel channel(connection);
  amqp_queue_declare(channel.state(), channel.id(), as_bytes(name), passive, 1, 0, 0,
                     passive ? amqp_empty_table : table);
  channel.check(amqp_get_rpc_reply(channel.state()),
                std::string(passive ? "checking (passively) queue '" : "declaring queue '") + name +
                    "' in vhost '" + connection.url().vhost + "'");
}

void bind_queue(Connection& connection, const std::string& queue_name,
                const std::string& exchange_name, const std::string& routing_key) {
  Channel channel(connection);
  amqp_queue_bind(channel.state(), channel.id(), as_bytes(queue_name), as_bytes(exchange_name),
                  as_bytes(routing_key), amqp_empty_table);
  channel.check(amqp_get_rpc_reply(channel.state()),
                "binding queue '" + queue_name + "' to exchange '" + exchange_name +
                    "' with routing key '" + routing_key + "'");
}

void visit(Connection& connection, const Topology& topology, bool passive) {
  require_names(connection, topology);
  const bool dead_letters = !topology.dead_letter_exchange.empty();
  if (dead_letters) {
    exchange(connection, topology.dead_letter_exchange, "fanout", passive);
    queue(connection, topology.dead_letter_queue, Topology{}, false, passive);
    if (!passive)
      bind_queue(connection, topology.dead_letter_queue, topology.dead_letter_exchange, "");
  }
  exchange(connection, topology.exchange, "topic", passive);
  queue(connection, topology.queue, topology, dead_letters, passive);
  if (!passive)
    bind_queue(connection, topology.queue, topology.exchange, topology.routing_key);
}

}  // namespace

void declare_topology(Connection& connection, const Topology& topology) {
  visit(connection, topology, false);
}

void check_topology(Connection& connection, const Topology& topology) {
  visit(connection, topology, true);
}

}  // namespace docket::rabbitmq::detail
