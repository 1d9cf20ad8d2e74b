// `docket bench keys`: key composition beside the raw limit of producing the same
// bytes, in one run. No store is involved: src/keys is pure.
//
// For each provider and each key kind it has (keys_workload.h), over realistic and over
// worst-case terms: docket's side composes the keys through the public API
// (compose_inbox_entry_id, compose_stream_key or compose_event_document_id,
// compose_saga_key: validation, escaping, limit check and the returned Key's string);
// the raw side copies the very bytes of the same keys, composed before the clock
// started, into a new std::string of the key's size (an allocation and a memcpy: the
// least any composer returning a key by value must do). Both sides go through the
// tuples in the same order, alternating in slices of about kSliceSeconds (which side
// goes first swaps every slice), so a neighbour's load slows both alike.
//
// Rates: keys per second; input bytes per second (the bytes of the string terms the
// key holds); output bytes per second (the bytes of the composed key), on the raw side
// the bytes copied. The ratio is docket's keys per second over the raw side's.
//
// Checks: both sides produced the same number of keys and of output bytes.
//
// Thread-safety: run_keys_bench() uses one thread and shares nothing.
#ifndef DOCKET_BENCH_KEYS_BENCH_H_
#define DOCKET_BENCH_KEYS_BENCH_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "docket/keys/provider.h"
#include "keys_workload.h"
#include "side_by_side.h"

namespace docket::bench {

struct KeysBenchOptions {
  static constexpr double kDefaultSeconds = 0.25;
  static constexpr double kMinSeconds = 0.01;
  static constexpr double kMaxSeconds = 60;
  static constexpr std::size_t kMaxIterations = 1'000'000'000;
  static constexpr double kSliceSeconds = 0.002;

  // At most one of the two: seconds per case (both sides together), or keys each side
  // composes per case. Neither: kDefaultSeconds.
  std::optional<double> seconds;
  std::optional<std::size_t> iterations;
  // The providers to run, each at most once; empty: every provider (kAllProviders).
  std::vector<keys::Provider> providers;
};

struct KeysSideReport {
  std::uint64_t keys = 0;
  std::uint64_t input_bytes = 0;   // term bytes of the keys (same on both sides)
  std::uint64_t output_bytes = 0;  // key bytes composed (docket) or copied (raw)
  double seconds = 0;
  double rate = 0;  // keys per second
  double input_byte_rate = 0;
  double output_byte_rate = 0;
};

struct KeysCaseReport {
  KeyCase key_case{keys::Provider::kFirestore, KeyKind::kInbox};
  TermSet terms = TermSet::kRealistic;
  std::string shape;            // "inbox entry id", ...
  std::string field;            // "document id", ...
  std::size_t limit_bytes = 0;  // the provider's limit for that field
  std::size_t tuples = 0;
  KeysSideReport docket;
  KeysSideReport raw;
  double ratio = 0;  // docket.rate / raw.rate
  SideBySideTimings timings;
};

struct KeysBenchReport {
  KeysBenchOptions options;  // providers filled in, seconds or iterations as run
  std::vector<KeysCaseReport> cases;
  std::vector<std::string> problems;  // failed checks; empty when the run is consistent

  bool ok() const noexcept { return problems.empty(); }
  // The slowest worst-case case by input bytes per second, and the lowest worst-case
  // ratio; nullptr when no worst-case case ran.
  const KeysCaseReport* slowest_worst_case() const noexcept;
  const KeysCaseReport* lowest_worst_case_ratio() const noexcept;
};

// Throws InvalidInputError for unusable options (seconds or iterations out of range,
// both given, a provider given twice).
KeysBenchReport run_keys_bench(const KeysBenchOptions& options);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_KEYS_BENCH_H_
