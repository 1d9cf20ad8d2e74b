// `docket soak`: the order pipeline at a steady rate for a long time, retention
// running, to show that docket's memory stays flat and its tables stay bounded.
//
// One process runs the producer (paced), a relay, billing's consumer (the in-process
// transport, no faults) and retention (every retention_interval: outbox messages done
// and inbox dedup records processed longer than `retention` ago are deleted). Every
// `sample_every` it samples its resident memory, open descriptors and the rows of
// docket's outbox and inbox tables. At the end it waits for what was placed to drain
// and checks every order invoiced exactly once.
//
// Pass: memory flat (the last sample's RSS at most 10% plus 8 MiB above the sample a
// quarter into the run, after warm-up), tables bounded (after the first retention
// period, never more rows than `rate * (retention + 2 * retention_interval)` times
// 1.5 plus 1000), and nothing lost or doubled.
//
// Thread-safety: run_soak() runs its own threads; call it from one thread.
#ifndef DOCKET_TOOLS_DOCKET_SOAK_SOAK_RUN_H_
#define DOCKET_TOOLS_DOCKET_SOAK_SOAK_RUN_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace docket::tool {

struct SoakOptions {
  std::string store_url;
  std::chrono::microseconds duration{std::chrono::hours(1)};
  std::uint64_t orders_per_second = 100;
  std::chrono::microseconds retention{std::chrono::minutes(1)};
  std::chrono::microseconds retention_interval{std::chrono::seconds(10)};
  std::chrono::microseconds sample_every{std::chrono::minutes(1)};
};

struct SoakSample {
  double seconds = 0;  // since the start
  std::uint64_t placed = 0;
  std::uint64_t invoiced = 0;  // dispatches that ran billing's handler
  std::int64_t rss_kib = 0;    // resident set (VmRSS)
  std::int64_t open_fds = 0;
  std::optional<std::int64_t> outbox_rows;  // nullopt: uncounted (examples::table_rows)
  std::optional<std::int64_t> inbox_rows;
  std::uint64_t purged_outbox = 0;  // so far
  std::uint64_t purged_inbox = 0;
};

struct SoakReport {
  std::vector<SoakSample> samples;
  std::int64_t table_bound = 0;  // the most rows a bounded table may hold
  bool memory_flat = false;
  bool tables_bounded = false;
  std::int64_t orders = 0;
  std::int64_t invoices = 0;
  std::int64_t doubled = 0;

  // A run that placed no order checked nothing: never ok, however its counts agree.
  bool ok() const noexcept {
    return orders > 0 && memory_flat && tables_bounded && invoices == orders && doubled == 0;
  }
};

// Calls `on_started` from the calling thread once the store is set up and answered a
// read, before any thread starts (a store that cannot be reached fails before it), and
// `on_sample` after each sample. Throws what the stores throw, and ConfigurationError
// for a store the order services cannot run on.
SoakReport run_soak(const SoakOptions& options, const std::function<void()>& on_started,
                    const std::function<void(const SoakSample&)>& on_sample);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_SOAK_SOAK_RUN_H_
