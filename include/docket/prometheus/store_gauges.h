// Gauges read from docket's stores when Prometheus scrapes (a prometheus-cpp
// Collectable): the outbox's backlog by destination and status and the age of its
// oldest due message (OutboxStore::stats), its parked messages, the claim inbox's
// entries by status (ClaimInboxStore::counts: failed among them), and each feed
// consumer's lag behind the event store's head (CheckpointStore::list against
// EventStore::last_position). docs/observability.md lists every metric.
//
// Each store is read once a scrape, with the store's own reads (no per-message work).
// A store that cannot be read (InfrastructureError) leaves its gauges out of that scrape
// and sets docket_store_up{store="..."} to 0, so a scrape never fails as a whole.
// Labels hold no store URL, so no credential.
//
// Projection lag is measured in positions, only on a feed of global positions (memory,
// SQLite, PostgreSQL), for whole-feed checkpoints (kept outside any tenant) whose
// position is a decimal: those named in StoreGaugeOptions::projections, or, when none
// is named, every such checkpoint (an outbox pull consumer's checkpoint, a sequence of
// the outbox, would then be measured against the event feed too: name the projections).
//
// Thread-safety: Collect may run on several scrape threads at once (the stores are
// thread-safe); the stores and the clock must outlive the gauges.
#ifndef DOCKET_PROMETHEUS_STORE_GAUGES_H_
#define DOCKET_PROMETHEUS_STORE_GAUGES_H_

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <optional>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/outbox/outbox_store.h"

namespace docket {

// The stores to read; each may be null (its gauges are then not exposed). Projection
// lag needs both the checkpoint store and the event store.
struct StoreGaugeSources {
  OutboxStore* outbox = nullptr;
  ClaimInboxStore* claim_inbox = nullptr;
  CheckpointStore* checkpoints = nullptr;
  EventStore* events = nullptr;
};

struct StoreGaugeOptions {
  // The feed consumers whose lag is exposed; empty: every whole-feed checkpoint (above).
  std::vector<std::string> projections{};
};

class StoreGauges final : public prometheus::Collectable {
 public:
  StoreGauges(StoreGaugeSources sources, StoreGaugeOptions options = {},
              const Clock& clock = SystemClock::instance());

  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  // Each appends its store's families to `out`: nullopt when that store is not read
  // (not given), else whether it could be read.
  std::optional<bool> collect_outbox(std::vector<prometheus::MetricFamily>& out) const;
  std::optional<bool> collect_claims(std::vector<prometheus::MetricFamily>& out) const;
  std::optional<bool> collect_projections(std::vector<prometheus::MetricFamily>& out) const;

  StoreGaugeSources sources_;
  StoreGaugeOptions options_;
  const Clock& clock_;
};

}  // namespace docket

#endif  // DOCKET_PROMETHEUS_STORE_GAUGES_H_
