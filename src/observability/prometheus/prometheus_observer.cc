// docket's counters and histograms in a prometheus-cpp registry. A hook looks its
// series up by labels (Family::Add returns the existing series), so no series is made
// before it is first observed.
#include "docket/prometheus/prometheus_observer.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/labels.h>
#include <prometheus/registry.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "docket/core/error.h"

namespace docket {
namespace {

using prometheus::Counter;
using prometheus::Family;
using prometheus::Histogram;
using prometheus::Labels;

double seconds(std::chrono::nanoseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

void check_buckets(const std::vector<double>& buckets) {
  if (buckets.empty()) {
    throw ConfigurationError(
        "prometheus observer: duration_buckets is empty; give ascending bounds in seconds, "
        "e.g. {0.001, 0.01, 0.1, 1}");
  }
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    if (!(buckets[i] > 0) || (i > 0 && !(buckets[i] > buckets[i - 1]))) {
      throw ConfigurationError("prometheus observer: duration_buckets[" + std::to_string(i) +
                               "] is " + std::to_string(buckets[i]) +
                               "; bounds must be positive and strictly ascending");
    }
  }
}

Family<Counter>& counter(prometheus::Registry& registry, const std::string& name,
                         const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}

Family<Histogram>& histogram(prometheus::Registry& registry, const std::string& name,
                             const std::string& help) {
  return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
}

}  // namespace

struct PrometheusObserver::Families {
  explicit Families(prometheus::Registry& r)
      : process_duration(
            histogram(r, "docket_messaging_process_duration_seconds",
                      "Time an inbox dispatch took, handlers and commit (OpenTelemetry "
                      "messaging.process.duration), by consumer, event type and outcome")),
        consumed(counter(r, "docket_messaging_client_consumed_messages_total",
                         "Messages the inbox dispatcher finished (OpenTelemetry "
                         "messaging.client.consumed.messages), by consumer, event type and "
                         "outcome: processed, skipped_duplicate, unhandled, failed, abandoned")),
        publish_duration(
            histogram(r, "docket_messaging_client_operation_duration_seconds",
                      "Time from a relay's publish of a message to the recording of its result "
                      "(OpenTelemetry messaging.client.operation.duration, operation publish), by "
                      "destination and outcome")),
        sent(counter(r, "docket_messaging_client_sent_messages_total",
                     "Messages the outbox relay published (OpenTelemetry "
                     "messaging.client.sent.messages), by destination, event type and outcome: "
                     "confirmed, retry_scheduled, parked, lease_lost, abandoned")),
        claim_transitions(counter(r, "docket_claim_inbox_transitions_total",
                                  "Claim inbox transitions a claim runner made or met, by "
                                  "handler type and transition")),
        claim_handler_duration(histogram(r, "docket_claim_inbox_handler_duration_seconds",
                                         "Time a claim runner's handler ran, by handler type and "
                                         "outcome: processed, failed, superseded")),
        appends(counter(r, "docket_eventstore_appends_total",
                        "Event store appends, by provider, aggregate type and outcome: "
                        "appended, conflict")),
        appended_events(counter(r, "docket_eventstore_appended_events_total",
                                "Events appended (not those of a conflict), by provider and "
                                "aggregate type")),
        append_duration(histogram(r, "docket_eventstore_append_duration_seconds",
                                  "Time an event store append took, by provider and outcome")),
        saga_conflicts(counter(r, "docket_saga_conflicts_total",
                               "Saga saves that lost an optimistic-concurrency race, by saga "
                               "type")) {}

  Family<Histogram>& process_duration;
  Family<Counter>& consumed;
  Family<Histogram>& publish_duration;
  Family<Counter>& sent;
  Family<Counter>& claim_transitions;
  Family<Histogram>& claim_handler_duration;
  Family<Counter>& appends;
  Family<Counter>& appended_events;
  Family<Histogram>& append_duration;
  Family<Counter>& saga_conflicts;
};

PrometheusObserver::PrometheusObserver(prometheus::Registry& registry,
                                       PrometheusObserverOptions options)
    : options_(std::move(options)) {
  check_buckets(options_.duration_buckets);
  families_ = std::make_unique<Families>(registry);
}

PrometheusObserver::~PrometheusObserver() = default;

namespace {

// `labels` with the tenant's, when asked for.
Labels with_tenant(Labels labels, bool tenant_label, std::string_view tenant) {
  if (tenant_label) {
    labels.emplace("tenant", std::string(tenant));
  }
  return labels;
}

}  // namespace

void PrometheusObserver::on_message_end(SpanToken, const MessageStart& message,
                                        const MessageEnd& end) {
  const std::string outcome(to_string(end.outcome));
  const Histogram::BucketBoundaries& buckets = options_.duration_buckets;
  if (message.role == MessageRole::kProcess) {
    const Labels labels = with_tenant({{"consumer", std::string(message.consumer_or_destination)},
                                       {"event_type", std::string(message.event_type)},
                                       {"outcome", outcome}},
                                      options_.tenant_label, message.tenant);
    families_->consumed.Add(labels).Increment();
    families_->process_duration.Add(labels, buckets).Observe(seconds(end.duration));
    return;
  }
  const std::string destination(message.consumer_or_destination);
  families_->sent
      .Add(with_tenant({{"destination", destination},
                        {"event_type", std::string(message.event_type)},
                        {"outcome", outcome}},
                       options_.tenant_label, message.tenant))
      .Increment();
  families_->publish_duration
      .Add(with_tenant({{"destination", destination}, {"outcome", outcome}}, options_.tenant_label,
                       message.tenant),
           buckets)
      .Observe(seconds(end.duration));
}

void PrometheusObserver::on_claim(const ClaimObservation& claim) {
  const std::string handler_type(claim.handler_type);
  const std::string transition(to_string(claim.transition));
  families_->claim_transitions
      .Add(with_tenant({{"handler_type", handler_type}, {"transition", transition}},
                       options_.tenant_label, claim.tenant))
      .Increment();
  if (claim.transition == ClaimTransition::kProcessed ||
      claim.transition == ClaimTransition::kFailed ||
      claim.transition == ClaimTransition::kSuperseded) {
    families_->claim_handler_duration
        .Add(with_tenant({{"handler_type", handler_type}, {"outcome", transition}},
                         options_.tenant_label, claim.tenant),
             options_.duration_buckets)
        .Observe(seconds(claim.handler_time));
  }
}

void PrometheusObserver::on_append(const AppendObservation& append) {
  const std::string provider(append.provider);
  const std::string aggregate_type(append.aggregate_type);
  const std::string outcome = append.conflict ? "conflict" : "appended";
  families_->appends
      .Add(with_tenant(
          {{"provider", provider}, {"aggregate_type", aggregate_type}, {"outcome", outcome}},
          options_.tenant_label, append.tenant))
      .Increment();
  if (!append.conflict) {
    families_->appended_events
        .Add(with_tenant({{"provider", provider}, {"aggregate_type", aggregate_type}},
                         options_.tenant_label, append.tenant))
        .Increment(static_cast<double>(append.events));
  }
  families_->append_duration
      .Add(with_tenant({{"provider", provider}, {"outcome", outcome}}, options_.tenant_label,
                       append.tenant),
           options_.duration_buckets)
      .Observe(seconds(append.duration));
}

void PrometheusObserver::on_saga_conflict(const SagaConflictObservation& conflict) {
  families_->saga_conflicts
      .Add(with_tenant({{"saga_type", std::string(conflict.saga_type)}}, options_.tenant_label,
                       conflict.tenant))
      .Increment();
}

}  // namespace docket
