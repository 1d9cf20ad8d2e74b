// A transport: what carries a message from an outbox relay to consumers (a broker, a
// log, or the in-process channel of in_process_transport.h). An application constructs
// one and hands it to a Relay (publishing) and a ConsumerRunner (consuming); what only
// a transport implements, and the invariants it keeps, are in docket/spi/transport.h.
//
// A transport delivers at least once: the relay publishes again what was not
// confirmed, and a broker may deliver a message more than once. It carries the message
// id (the outbox id) verbatim, so that the consumer's inbox collapses redeliveries;
// that is the whole contract between the two sides.
//
// Publishing is in batches with a result per message (publish_batch), so that the
// relay marks done exactly the confirmed ones. A transport whose broker takes one
// message at a time overrides publish() alone; the batch is then published message by
// message (each exception a kRetryable result).
//
// Thread-safety: publish_batch()/publish() may be called from several relays' threads
// at once, and subscribe() from any thread.
#ifndef DOCKET_TRANSPORTS_TRANSPORT_H_
#define DOCKET_TRANSPORTS_TRANSPORT_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/transports/publish_result.h"
#include "docket/transports/subscription.h"
#include "docket/transports/transport_message.h"

namespace docket {

// The transport refused or lost a publish, or cannot go on consuming; the message
// names the broker, the destination and what to do.
class TransportError : public InfrastructureError {
 public:
  using InfrastructureError::InfrastructureError;
};

class Transport {
 public:
  virtual ~Transport() = default;
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // One result per message of `batch`, in its order. A failure of the whole batch (the
  // connection lost) is a kRetryable result for each message; a ConfigurationError
  // (the transport cannot work as configured) propagates. Throws std::logic_error when
  // the transport answers a different number of messages than it was given.
  std::vector<PublishResult> publish_batch(std::span<const TransportMessage> batch);

  // Publishes one message: returns once it is confirmed; throws TransportError with the
  // result's error otherwise. A transport may override it (publish_batch then calls it
  // for each message, unless do_publish_batch is overridden too).
  virtual void publish(const TransportMessage& message);

  // Opens a subscription (docket/transports/subscription.h). Throws ConfigurationError
  // for options the transport cannot serve (a prefetch of 0, ...) or, for a transport
  // that only publishes, naming it.
  Subscription subscribe(const SubscriptionOptions& options);

  // Where dead_letter() moves a message of `destination`: "<destination>.dead-letter"
  // unless a transport says otherwise.
  virtual std::string dead_letter_destination(std::string_view destination) const;

  // What the transport is, for errors and reports ("in-process transport", a broker's
  // URL without its password). The default: "transport".
  virtual std::string describe() const;

 protected:
  Transport() = default;

  // The SPI (docket/spi/transport.h). The default publishes each message with
  // publish(), a throw becoming a kRetryable result; a transport overrides this one, or
  // publish(), or both (overriding neither is a ConfigurationError at the first publish).
  virtual std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch);

  // The default throws ConfigurationError: the transport only publishes.
  virtual std::unique_ptr<spi::SubscriptionChannel> do_subscribe(
      const SubscriptionOptions& options);
};

// Dispatches `message` through `dispatcher` under the message's tenant ("__untenanted__"
// untenanted, whatever the caller's scope): what a consumer does with each delivery
// before acknowledging.
DispatchOutcome dispatch_message(const InboxDispatcher& dispatcher,
                                 const TransportMessage& message);

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_TRANSPORT_H_
