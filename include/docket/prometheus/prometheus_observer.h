// An Observer (docket/core/observer.h) that counts into a prometheus-cpp registry: the
// counters and histograms of the messages docket processes and publishes, of the claim
// inbox's transitions and of the event store's appends (docs/observability.md lists
// every metric). Names follow OpenTelemetry's messaging semantic conventions where one
// exists (messaging.process.duration -> docket_messaging_process_duration_seconds),
// with the unit in the name.
//
// Labels stay bounded: consumer, destination, event type, handler type, aggregate type,
// provider and outcome; never a message id, and a tenant only when asked for
// (PrometheusObserverOptions::tenant_label: one series per tenant).
//
//   auto registry = std::make_shared<prometheus::Registry>();
//   auto observer = std::make_shared<docket::PrometheusObserver>(*registry);
//   docket::InboxOptions options("billing", docket::DedupCheck::kBeforeHandlers, observer);
//   prometheus::Exposer exposer("127.0.0.1:9464");
//   exposer.RegisterCollectable(registry);
//
// Thread-safety: every hook may be called from many threads at once (prometheus-cpp's
// families and metrics are thread-safe). The registry must outlive the observer.
#ifndef DOCKET_PROMETHEUS_PROMETHEUS_OBSERVER_H_
#define DOCKET_PROMETHEUS_PROMETHEUS_OBSERVER_H_

#include <memory>
#include <vector>

#include "docket/core/observer.h"

namespace prometheus {
class Registry;
}  // namespace prometheus

namespace docket {

struct PrometheusObserverOptions {
  // Adds a `tenant` label to every series: one series per tenant, so only for a bounded
  // number of tenants.
  bool tenant_label = false;
  // Bucket bounds, in seconds, of every duration histogram; ascending, positive.
  std::vector<double> duration_buckets{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                       0.1,    0.25,  0.5,    1,     2.5,  5,     10};
};

class PrometheusObserver final : public Observer {
 public:
  // Registers docket's families in `registry`. Throws ConfigurationError when the
  // buckets are empty, not ascending or not positive; what prometheus-cpp throws when
  // a family of one of these names is registered there already with other labels.
  explicit PrometheusObserver(prometheus::Registry& registry,
                              PrometheusObserverOptions options = {});
  ~PrometheusObserver() override;
  PrometheusObserver(const PrometheusObserver&) = delete;
  PrometheusObserver& operator=(const PrometheusObserver&) = delete;

  void on_message_end(SpanToken token, const MessageStart& message, const MessageEnd& end) override;
  void on_claim(const ClaimObservation& claim) override;
  void on_append(const AppendObservation& append) override;
  void on_saga_conflict(const SagaConflictObservation& conflict) override;

 private:
  struct Families;
  PrometheusObserverOptions options_;
  std::unique_ptr<Families> families_;
};

}  // namespace docket

#endif  // DOCKET_PROMETHEUS_PROMETHEUS_OBSERVER_H_
