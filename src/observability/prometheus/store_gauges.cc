// The store gauges, read at each scrape. Every family is built whole from one read of
// its store, so a scrape shows one store's numbers from one moment.
#include "docket/prometheus/store_gauges.h"

#include <prometheus/client_metric.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox_stats.h"

namespace docket {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

MetricFamily gauge_family(std::string name, std::string help) {
  return MetricFamily{std::move(name), std::move(help), MetricType::Gauge, {}};
}

void add_gauge(MetricFamily& family, std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric metric;
  metric.label = std::move(labels);
  metric.gauge.value = value;
  family.metric.push_back(std::move(metric));
}

double seconds_between(Timestamp from, Timestamp to) {
  return std::max(0.0, std::chrono::duration<double>(to - from).count());
}

// The decimal position of a checkpoint, or nullopt when it is not one.
std::optional<std::int64_t> decimal_position(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

StoreGauges::StoreGauges(StoreGaugeSources sources, StoreGaugeOptions options, const Clock& clock)
    : sources_(sources), options_(std::move(options)), clock_(clock) {}

std::vector<MetricFamily> StoreGauges::Collect() const {
  std::vector<MetricFamily> out;
  MetricFamily up = gauge_family(
      "docket_store_up",
      "1 when the store's gauges were read at this scrape, 0 when the store could not be read");
  for (const auto& [store, read] :
       {std::pair{"outbox", collect_outbox(out)}, std::pair{"claim_inbox", collect_claims(out)},
        std::pair{"projections", collect_projections(out)}}) {
    if (read) {
      add_gauge(up, {{"store", store}}, *read ? 1 : 0);
    }
  }
  if (!up.metric.empty()) {
    out.push_back(std::move(up));
  }
  return out;
}

std::optional<bool> StoreGauges::collect_outbox(std::vector<MetricFamily>& out) const {
  if (sources_.outbox == nullptr) {
    return std::nullopt;
  }
  try {
    const Timestamp now = clock_.now();
    const OutboxStats stats = sources_.outbox->stats(now);
    MetricFamily messages =
        gauge_family("docket_outbox_messages",
                     "Outbox messages waiting, by destination and status: due (waiting for a "
                     "relay), in_backoff (a failed attempt, the next later), scheduled (due "
                     "later), parked (failed for good, waiting for a replay)");
    for (const auto& [destination, counts] : stats.by_destination) {
      for (const auto& [status, count] :
           {std::pair{"due", counts.due}, std::pair{"in_backoff", counts.in_backoff},
            std::pair{"scheduled", counts.scheduled}, std::pair{"parked", counts.parked}}) {
        add_gauge(messages, {{"destination", destination}, {"status", status}},
                  static_cast<double>(count));
      }
    }
    MetricFamily backlog = gauge_family("docket_outbox_backlog_messages",
                                        "Outbox messages pending (due, in backoff or scheduled)");
    add_gauge(backlog, {}, static_cast<double>(stats.total.pending()));
    MetricFamily parked = gauge_family("docket_outbox_parked_messages",
                                       "Outbox messages parked, waiting for a replay or a skip");
    add_gauge(parked, {}, static_cast<double>(stats.total.parked));
    MetricFamily oldest = gauge_family(
        "docket_outbox_oldest_due_age_seconds",
        "How long the outbox message that has been due longest has waited; 0 when none is due");
    add_gauge(oldest, {},
              stats.oldest_due_created_at ? seconds_between(*stats.oldest_due_created_at, now) : 0);
    for (MetricFamily* family : {&messages, &backlog, &parked, &oldest}) {
      out.push_back(std::move(*family));
    }
    return true;
  } catch (const InfrastructureError&) {
    return false;
  }
}

std::optional<bool> StoreGauges::collect_claims(std::vector<MetricFamily>& out) const {
  if (sources_.claim_inbox == nullptr) {
    return std::nullopt;
  }
  try {
    const ClaimCounts counts = sources_.claim_inbox->counts(std::nullopt);
    MetricFamily entries = gauge_family(
        "docket_claim_inbox_entries",
        "Claim inbox entries of every tenant, by status: received, processing, processed, "
        "failed, failed_due (failed and due for a retry)");
    for (const auto& [status, count] :
         {std::pair{"received", counts.received}, std::pair{"processing", counts.processing},
          std::pair{"processed", counts.processed}, std::pair{"failed", counts.failed},
          std::pair{"failed_due", counts.failed_due}}) {
      add_gauge(entries, {{"status", status}}, static_cast<double>(count));
    }
    out.push_back(std::move(entries));
    return true;
  } catch (const InfrastructureError&) {
    return false;
  }
}

std::optional<bool> StoreGauges::collect_projections(std::vector<MetricFamily>& out) const {
  if (sources_.checkpoints == nullptr || sources_.events == nullptr ||
      sources_.events->capabilities().feed != FeedKind::kGlobalPositions) {
    return std::nullopt;
  }
  try {
    const Timestamp now = clock_.now();
    const std::int64_t head = sources_.events->last_position();
    MetricFamily lag = gauge_family(
        "docket_projection_lag_positions",
        "Events of the feed a whole-feed consumer has not read yet: the feed's head minus its "
        "checkpoint, by consumer");
    MetricFamily age = gauge_family("docket_projection_checkpoint_age_seconds",
                                    "Time since a whole-feed consumer last set its checkpoint, "
                                    "by consumer");
    CheckpointListRequest request{.tenant = TenantId::untenanted(),
                                  .limit = kMaxCheckpointPageSize};
    for (;;) {
      const CheckpointPage page = sources_.checkpoints->list(request);
      for (const CheckpointEntry& entry : page.entries) {
        const bool named = std::find(options_.projections.begin(), options_.projections.end(),
                                     entry.consumer_id) != options_.projections.end();
        const std::optional<std::int64_t> next = decimal_position(entry.position);
        if ((!options_.projections.empty() && !named) || !next) {
          continue;
        }
        // The checkpoint is the next position the consumer reads: it has read all below.
        const std::int64_t behind = std::max<std::int64_t>(0, head - *next + 1);
        add_gauge(lag, {{"consumer", entry.consumer_id}}, static_cast<double>(behind));
        add_gauge(age, {{"consumer", entry.consumer_id}}, seconds_between(entry.updated_at, now));
      }
      if (!page.next) {
        break;
      }
      request.after = page.next;
    }
    out.push_back(std::move(lag));
    out.push_back(std::move(age));
    return true;
  } catch (const InfrastructureError&) {
    return false;
  }
}

}  // namespace docket
