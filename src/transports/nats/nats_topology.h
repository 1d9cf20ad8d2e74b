// The streams and consumers the NATS transport uses, declared from the URL or, when the
// user may not declare them (or the URL gives no subjects), checked:
//
//   ensure_stream(connection);                       // the URL's stream
//   ensure_consumer(connection, {.name = ..., .filter_subject = destination});
//
// A stream declared here: the URL's subjects, file storage, limits retention (a message
// stays until the stream's limits remove it, whatever the consumers did, so that a
// consumer group created later still reads what came before it), discard old, the URL's
// duplicate window, max_msg_size and max_age. A consumer declared here: durable, pull,
// explicit acknowledgement, deliver all, the URL's ack_wait, max_deliver and
// max_ack_pending, filtered to one destination's subject.
//
// Checked: a stream that exists serves as it is when it takes every subject the URL
// gives (its other settings are its owner's); a consumer that exists serves as it is
// when it filters the same subject. Otherwise a NatsError names the stream or consumer,
// what differs and what to do: not_found (it does not exist and the URL gives no
// subjects to declare it with), access_refused (it does not exist and the user may not
// create it), mismatch.
//
// Thread-safety: functions over a connection (thread-safe); declaring the same stream or
// consumer from several processes at once is safe (JetStream takes an identical
// declaration as a no-op).
#ifndef DOCKET_TRANSPORTS_NATS_NATS_TOPOLOGY_H_
#define DOCKET_TRANSPORTS_NATS_NATS_TOPOLOGY_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "transports/nats/nats_connection.h"

namespace docket::nats::detail {

// Declares or checks the URL's stream (connection.url().stream, which must be set).
// Clients declaring one stream at once all succeed: a declaration refused because
// another client's just landed reads the stream again (after_a_race is that second
// reading, which does not try again).
void ensure_stream(const Connection& connection, bool after_a_race = false);

struct ConsumerSpec {
  std::string name;            // the durable name
  std::string filter_subject;  // the destination
};

// Declares or checks a durable pull consumer of the URL's stream; concurrent
// declarations all succeed, as for ensure_stream.
void ensure_consumer(const Connection& connection, const ConsumerSpec& spec,
                     bool after_a_race = false);

// Deletes a consumer of the URL's stream; nothing when it does not exist.
void delete_consumer(const Connection& connection, std::string_view name);

// Deletes the URL's stream with its messages and consumers; nothing when it does not
// exist.
void delete_stream(const Connection& connection);

// The messages a consumer has not yet been delivered (NumPending) plus those delivered
// and not acknowledged (NumAckPending). Throws NatsError not_found when it does not exist.
std::uint64_t consumer_backlog(const Connection& connection, std::string_view name);

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_TOPOLOGY_H_
