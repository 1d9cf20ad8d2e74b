// How a docket TransportMessage travels on NATS JetStream: the NATS protocol binding of
// CloudEvents 1.0 in binary mode (docket/transports/cloudevents.h): each attribute a
// NATS header "ce-<attribute>", the content type the header "Content-Type", every
// application header as itself; the destination is the subject; the payload is the
// data, unchanged. Two JetStream headers go with it: "Nats-Msg-Id", the message id
// (the outbox id), by which the stream drops a second publish of it within its
// duplicate window, and "Nats-Expected-Stream", so that only the transport's stream
// stores it (another stream that takes the subject refuses it).
//
// Invariants: an application header named "Nats-..." (JetStream's own, in any case) or
// that NATS cannot carry (empty, whitespace or ':' in the name, a line break in the
// value) is refused, naming it, never sent altered; on delivery the "Nats-..." headers
// are dropped.
//
// Thread-safety: pure functions over values; a natsMsg belongs to one thread at a time.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_WIRE_H_
#define DOCKET_TRANSPORTS_NATS_NATS_WIRE_H_

#include <nats/nats.h>

#include <string>
#include <string_view>
#include <vector>

#include "docket/core/message_header.h"
#include "docket/transports/transport_message.h"
#include "transports/nats/nats_handles.h"

namespace docket::nats::detail {

inline constexpr std::string_view kMsgIdHeader = "Nats-Msg-Id";
inline constexpr std::string_view kExpectedStreamHeader = "Nats-Expected-Stream";
inline constexpr std::string_view kContentTypeHeader = "Content-Type";

// A message with `subject`, `data` and `headers` (in order, repeats kept). Throws
// InvalidInputError naming what NATS cannot carry.
MsgPtr make_message(std::string_view subject, std::string_view data,
                    const std::vector<MessageHeader>& headers);

// `message` as published to `stream`: subject = its destination. Throws
// InvalidInputError for a destination that is not a NATS subject one may publish to, or
// a header as above.
MsgPtr to_nats_message(const TransportMessage& message, std::string_view stream);

// Every header of `message`, in the client's order (values of a repeated header in
// theirs).
std::vector<MessageHeader> headers_of(natsMsg* message);

// The message `message` carries. Throws InvalidInputError naming what is wrong when it
// is not a CloudEvents binary-mode message (a producer that is not docket).
TransportMessage from_nats_message(natsMsg* message);

// True for JetStream's own headers ("Nats-...", in any case).
bool is_nats_header(std::string_view name);

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_WIRE_H_
