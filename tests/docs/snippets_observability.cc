// docs/observability.md's C++ blocks, compiled (tests/docs/check_snippets.cmake), in
// functions that declare what they use. The Prometheus block is
// snippets_prometheus.cc, built only with DOCKET_PROMETHEUS. Compiled only: nothing here
// runs.
//
// Thread-safety: nothing runs.
#include <memory>

#include "docket/docket.h"

namespace docs_observability {

// An application's observer: counts and traces through the hooks it overrides.
class MyObserver : public docket::Observer {};

void run(docket::InboxStore* store, docket::HandlerRegistry handlers,
         const std::unique_ptr<docket::OutboxStore>& outbox_store, docket::Transport& transport) {
  // clang-format off
auto observer = std::make_shared<MyObserver>();            // : docket::Observer
docket::InboxDispatcher inbox(*store, docket::InboxOptions("billing",
    docket::DedupCheck::kBeforeHandlers, observer), std::move(handlers));
docket::Relay relay(*outbox_store, transport, docket::RelayOptions({}, observer));
  // clang-format on
}

}  // namespace docs_observability
