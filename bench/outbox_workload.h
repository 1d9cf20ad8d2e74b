// What `docket bench outbox` stages and relays, shared by docket's side and the raw
// baselines so that both issue the same statements with the same values.
//
// Every message is one small order event, untenanted, with the run id as its source
// (message_source), by which a run's rows are counted. Relays publish into a
// PublishLog instead of a broker: the bench measures the outbox, not a transport.
//
// Thread-safety: constants, plain values, a pure function, and PublishLog (internally
// locked).
#ifndef DOCKET_BENCH_OUTBOX_WORKLOAD_H_
#define DOCKET_BENCH_OUTBOX_WORKLOAD_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_message.h"

namespace docket::bench {

inline constexpr std::string_view kOutboxEventType = "bench.order-placed";
inline constexpr std::string_view kOutboxPayload = R"({"order":"A-1001","qty":3})";
// The tenant docket stages under outside a TenantScope.
inline constexpr std::string_view kOutboxTenant = "__untenanted__";

// The record docket's Outbox::stage makes of the bench's message `id` staged at `now`
// with `sequence`, from the run `source`: pending, due now, the destination its event
// type, no trace context, ordering key or headers. The document stores' raw sides write
// the items their stores would write of it.
OutboxRecord bench_outbox_record(std::string_view id, std::int64_t sequence, Timestamp now,
                                 std::string_view source);

// What one side's relay passes did.
struct RelayTally {
  std::uint64_t passes = 0;
  std::uint64_t claimed = 0;
  std::uint64_t published = 0;  // published and marked done
  std::uint64_t not_done = 0;   // published, but the mark-done found the lease gone

  RelayTally& operator+=(const RelayTally& other) noexcept {
    passes += other.passes;
    claimed += other.claimed;
    published += other.published;
    not_done += other.not_done;
    return *this;
  }
};

// A run's rows in a side's database, read bypassing docket: their ids (in any order)
// and how many are marked done.
struct OutboxRunRows {
  std::vector<std::string> ids;
  std::int64_t done = 0;
};

// Every message id a side's relays published, in publishing order (a counting
// transport: it keeps what it is given and delivers nothing).
class PublishLog {
 public:
  void record(std::string_view message_id) {
    std::lock_guard lock(mutex_);
    ids_.emplace_back(message_id);
  }
  // The ids published so far, sorted (duplicates kept).
  std::vector<std::string> sorted_ids() const;

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> ids_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_OUTBOX_WORKLOAD_H_
