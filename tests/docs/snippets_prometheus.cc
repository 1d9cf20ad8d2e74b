// docs/observability.md's Prometheus block, compiled (tests/docs/check_snippets.cmake)
// where docket::prometheus is built (DOCKET_PROMETHEUS). Compiled only: nothing runs.
//
// Thread-safety: nothing runs.
#include <prometheus/exposer.h>
#include <prometheus/registry.h>

#include <memory>

#include "docket/docket.h"
#include "docket/prometheus/prometheus_observer.h"
#include "docket/prometheus/store_gauges.h"

namespace docs_prometheus {

void run(const std::unique_ptr<docket::OutboxStore>& outbox_store,
         const std::unique_ptr<docket::ClaimInboxStore>& claims,
         const std::unique_ptr<docket::InboxStore>& inbox_store,
         const std::unique_ptr<docket::EventStore>& events) {
  // clang-format off
auto registry = std::make_shared<prometheus::Registry>();
auto observer = std::make_shared<docket::PrometheusObserver>(*registry);
auto gauges = std::make_shared<docket::StoreGauges>(docket::StoreGaugeSources{
    .outbox = outbox_store.get(), .claim_inbox = claims.get(),
    .checkpoints = &inbox_store->checkpoints(), .events = events.get()});
prometheus::Exposer exposer("127.0.0.1:9464");
exposer.RegisterCollectable(registry);
exposer.RegisterCollectable(gauges);
  // clang-format on
}

}  // namespace docs_prometheus
