// Opens a broker's transport from a URL, naming no broker in the code. Transports are
// separate libraries; open_transport() (library docket::brokers) knows the ones this
// build of docket includes, each by its URL scheme:
//
//   amqp://user:password@host:port/vhost?exchange=orders
//                              RabbitMQ (docs/rabbitmq.md)
//   nats://user:password@host:port?stream=ORDERS&subject=orders.>
//                              NATS JetStream (docs/nats.md)
//   pubsub://host:port?project=P, pubsub://googleapis?project=P
//                              Google Cloud Pub/Sub (docs/pubsub.md)
//
// The in-process transport (in_process_transport.h) carries messages within one process
// and has no URL: construct it.
//
//   std::unique_ptr<docket::Transport> transport = docket::open_transport(url);
//   docket::Relay relay(*outbox_store, *transport, ...);
//
// Thread-safety: safe to call from many threads; the transport returned is as
// thread-safe as transport.h says.
#ifndef DOCKET_TRANSPORTS_OPEN_TRANSPORT_H_
#define DOCKET_TRANSPORTS_OPEN_TRANSPORT_H_

#include <memory>
#include <string>
#include <string_view>

#include "docket/transports/transport.h"

namespace docket {

// Throws ConfigurationError for a URL without a scheme or with one no transport of this
// build has (listing the schemes it has, and the transports left out of it with the
// CMake option that builds each), and what the transport's constructor throws for a URL
// it refuses (the URL masked by printable_transport_url()). Connects on first use, not
// here.
std::unique_ptr<Transport> open_transport(std::string_view url);

// The URL with every credential it carries replaced by "***", by the rule
// printable_store_url() follows (user info alone included: a broker may read it as a
// token): what logs and reports show. Nothing else is altered or validated, whatever
// the scheme.
std::string printable_transport_url(std::string_view url);

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_OPEN_TRANSPORT_H_
