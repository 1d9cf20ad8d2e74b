// The transport SPI: how a relay hands a message to whatever carries it to consumers
// (a broker, a log, an HTTP push, or the in-process channel of in_process_transport.h).
//
// A transport delivers at least once: the relay retries until publish() returns, and a
// transport may deliver a message more than once. It must carry the message id (the
// outbox id) verbatim, so that the consumer's inbox collapses redeliveries; that is the
// whole contract between the two sides.
//
// Thread-safety: publish() may be called from several relays' threads at once.
#ifndef DOCKET_TRANSPORTS_TRANSPORT_H_
#define DOCKET_TRANSPORTS_TRANSPORT_H_

#include <string>

#include "docket/core/error.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

// One message in flight: its tenant and its envelope (message id = outbox id).
struct TransportMessage {
  std::string tenant;
  Envelope envelope;
};

// The transport refused or lost a publish; the relay records it and retries later.
class TransportError : public InfrastructureError {
 public:
  using InfrastructureError::InfrastructureError;
};

class Transport {
 public:
  virtual ~Transport() = default;

  // Returns once the transport has taken responsibility for `message`. Throws (any
  // exception; TransportError for the transport's own refusals) when it has not; the
  // relay then schedules a retry.
  virtual void publish(const TransportMessage& message) = 0;

 protected:
  Transport() = default;
};

// Dispatches `message` through `dispatcher` under the message's tenant (no tenant scope
// for "__untenanted__"): what a consumer does with each delivery before acknowledging.
DispatchOutcome dispatch_message(const InboxDispatcher& dispatcher,
                                 const TransportMessage& message);

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_TRANSPORT_H_
