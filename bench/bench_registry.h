// The bench sides of this build's providers (bench_provider.h), listed with the
// providers by builtin_providers.cmake, and the store a benchmark runs on.
//
// Thread-safety: immutable after first use; every function may be called from many
// threads.
#ifndef DOCKET_BENCH_BENCH_REGISTRY_H_
#define DOCKET_BENCH_BENCH_REGISTRY_H_

#include <span>
#include <string_view>

#include "bench_provider.h"
#include "bench_store.h"

namespace docket::bench {

struct BenchProviderEntry {
  std::string_view name;  // the provider's registered name
  const ProviderBench* bench;
};

// Every provider of this build that has a bench side (bench_providers.cc).
std::span<const BenchProviderEntry> bench_providers();

// The run's store on `url`, its sides in kDocketSideName and kRawSideName (or the
// namespaces given). Throws ConfigurationError for a URL no provider of this build
// opens, an in-memory store (no durable commit to measure), a provider without a
// bench side, or a URL its bench side cannot run on; each names what to pass instead.
BenchStore parse_bench_store(std::string_view url);
BenchStore parse_bench_store(std::string_view url, std::string_view docket_side,
                             std::string_view raw_side);

// The raw side of one benchmark on the store's provider. Throws ConfigurationError
// naming the provider and the providers that have one when it has none, and the
// benchmark that was run (`benchmark`: a benchmark that uses another's side, as
// relay and latency use the outbox's, names itself).
const InboxBench& inbox_bench(const BenchStore& store, std::string_view benchmark = "inbox");
const OutboxBench& outbox_bench(const BenchStore& store, std::string_view benchmark = "outbox");
const EventsBench& events_bench(const BenchStore& store);
const ClaimBench& claim_bench(const BenchStore& store);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_BENCH_REGISTRY_H_
