// docs/transports.md's blocks, compiled (tests/docs/check_snippets.cmake): opening a
// transport by URL with a relay and a consumer runner over it, and a service host
// running them. Compiled only: nothing runs.
//
// Thread-safety: nothing runs.
#include <memory>

#include "docket/docket.h"

namespace docs_transports {

void open(const std::unique_ptr<docket::OutboxStore>& outbox_store,
          const docket::InboxDispatcher& dispatcher) {
  // clang-format off
std::unique_ptr<docket::Transport> transport =
    docket::open_transport("amqp://app:secret@broker:5672/prod?exchange=orders");
docket::Relay relay(*outbox_store, *transport, docket::RelayOptions({.batch_size = 100}));
docket::ConsumerRunner billing(*transport, dispatcher,
    docket::ConsumerRunnerOptions({.destination = "order-placed", .group = "billing"}));
  // clang-format on
}

// clang-format off
// Called from main, once the stores, transport, dispatcher, relay and runner (as above)
// are made.
void serve(docket::Relay& relay, docket::ConsumerRunner& billing,
           docket::EventFeedConsumer& feed_consumer) {
  docket::ServiceHost host;
  host.add("relay", relay).add("billing", billing).add("projections", feed_consumer);
  host.run();  // until SIGINT or SIGTERM; every loop then stops and is joined
}
// clang-format on

}  // namespace docs_transports
