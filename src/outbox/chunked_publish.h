// Publishing a claimed batch in chunks: what a relay does when a transport publish
// carries fewer messages than a claim takes (RelaySettings::publish_batch_size), so
// that the store's claim and mark are paid once for many broker round trips.
//
// Invariants: the result has one entry per message, in the batch's order; chunks are
// published in order, each through one Transport::publish_batch call; a message whose
// ordering key had a message not confirmed earlier in the batch is not sent (kRetryable,
// saying why), so a key's messages never overtake one another across chunks, as
// publish_batch guarantees within one.
//
// Thread-safety: none of its own; the transport's publish_batch may be called from any
// thread.
#ifndef DOCKET_SRC_OUTBOX_CHUNKED_PUBLISH_H_
#define DOCKET_SRC_OUTBOX_CHUNKED_PUBLISH_H_

#include <cstddef>
#include <span>
#include <vector>

#include "docket/transports/publish_result.h"
#include "docket/transports/transport.h"
#include "docket/transports/transport_message.h"

namespace docket::detail {

struct ChunkedPublish {
  std::vector<PublishResult> results{};
  std::size_t calls = 0;  // Transport::publish_batch calls made (broker round trips)
};

// Publishes `batch` through `transport` in chunks of at most `chunk` messages (at least
// 1). Propagates what publish_batch throws (a ConfigurationError); results already
// answered are then dropped with it, as for one publish_batch call.
ChunkedPublish publish_in_chunks(Transport& transport, std::span<const TransportMessage> batch,
                                 std::size_t chunk);

}  // namespace docket::detail

#endif  // DOCKET_SRC_OUTBOX_CHUNKED_PUBLISH_H_
