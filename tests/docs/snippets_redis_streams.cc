// docs/redis-streams.md's block, compiled (tests/docs/check_snippets.cmake) where the
// Redis Streams transport is built (DOCKET_TRANSPORT_REDIS). Compiled only: nothing runs.
//
// Thread-safety: nothing runs.
#include <memory>

#include "docket/docket.h"
#include "docket/redis/transport.h"

namespace docs_redis_streams {

void run(const std::unique_ptr<docket::OutboxStore>& outbox_store,
         const docket::InboxDispatcher& dispatcher) {
  // clang-format off
docket::redis::StreamsTransport transport(
    "redis://:secret@127.0.0.1:6379/0?stream_prefix=shop:&group=billing");
docket::Relay relay(*outbox_store, transport, docket::RelayOptions({.batch_size = 100}));
docket::ConsumerRunner billing(transport, dispatcher,
    docket::ConsumerRunnerOptions({.destination = "order-placed", .group = "billing"}));
  // clang-format on
}

}  // namespace docs_redis_streams
