// The NATS JetStream transport (docket/transports/transport.h, docket/spi/transport.h):
//
//   #include "docket/nats/transport.h"
//   docket::nats::NatsTransport
//   transport("nats://user:pw@host:4222?stream=ORDERS&subject=orders.>");
//
// or, naming no broker in the code, docket::open_transport(url)
// (docket/transports/open_transport.h). The URL's form and options: docs/nats.md.
//
// A message is published to the subject named by its destination, verbatim, and stored
// by the URL's stream (declared from the URL's subjects on first use, or checked), with
// the stream's acknowledgement awaited for each message, its message id as
// Nats-Msg-Id (the stream's duplicate window drops a second publish of it), in
// CloudEvents binary mode (nats_wire.h). A subject no stream takes is kUnroutable. A
// consumer group of a destination is a durable pull consumer of the stream,
// consumer_name(destination, group), filtered to the destination's subject, with
// explicit acknowledgement and deliver-all: a group reads everything its stream holds
// for the destination, including what was published before the group existed.
//
// Invariants: a destination is a NATS subject without wildcards (ConfigurationError
// otherwise on subscribe, kRefused on publish); its dead-letter destination is
// "<destination>.dead-letter", which the stream must take too ("orders.>" does).
//
// Thread-safety: publish_batch() from any number of threads (serialised on one
// publishing connection); subscribe() from any thread, each subscription on its own
// connection, and may outlive the transport object.
#ifndef DOCKET_NATS_TRANSPORT_H_
#define DOCKET_NATS_TRANSPORT_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/transports/transport.h"

namespace docket::nats {

class NatsTransport final : public Transport {
 public:
  // Parses `url` (nats_url.h). Throws ConfigurationError naming what is wrong when it
  // does not parse or names no stream. Connects on first use, not here.
  explicit NatsTransport(std::string_view url);
  ~NatsTransport() override;

  // Declares (or checks) the durable consumer of `group` for `destination`, and the
  // stream. Idempotent. Throws ConfigurationError for a destination that is not a
  // subject without wildcards, TransportError when the server refuses or cannot be
  // reached.
  void declare_group(std::string_view destination, std::string_view group);

  // The durable consumer of `group` ("default" when empty) for `destination`: both
  // made of letters, digits, '-' and '_', and a hash of the two, so that distinct
  // pairs never share one.
  std::string consumer_name(std::string_view destination, std::string_view group) const;
  const std::string& stream() const noexcept;

  // "NATS JetStream nats://user:***@host:port?stream=...&subject=...".
  std::string describe() const override;

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override;
  std::unique_ptr<spi::SubscriptionChannel> do_subscribe(
      const SubscriptionOptions& options) override;

 private:
  struct State;  // the URL and the publishing connection
  std::unique_ptr<State> state_;
};

}  // namespace docket::nats

#endif  // DOCKET_NATS_TRANSPORT_H_
