// The message a transport carries: the envelope the consumer's inbox dispatches
// (message id = outbox id, verbatim), the tenant it was staged under, and its route.
//
// Invariants: `envelope.message_id` is the outbox id, never rewritten by a transport,
// so that the consumer's inbox collapses redeliveries and duplicates; `destination` is
// never empty once a relay built the message (destination_of(), docket/outbox/
// outbox_message.h: a row's destination, or its event type).
//
// Thread-safety: a plain value type.
#ifndef DOCKET_TRANSPORTS_TRANSPORT_MESSAGE_H_
#define DOCKET_TRANSPORTS_TRANSPORT_MESSAGE_H_

#include <optional>
#include <string>
#include <vector>

#include "docket/core/message_header.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

struct TransportMessage {
  std::string tenant{};  // "__untenanted__" for a message staged outside a tenant scope
  Envelope envelope{};
  // The route: where it is published (a topic, an exchange, a subject), the key whose
  // messages keep their publish order, and the application's headers, all verbatim.
  std::string destination{};
  std::optional<std::string> ordering_key{};
  std::vector<MessageHeader> headers{};
};

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_TRANSPORT_MESSAGE_H_
