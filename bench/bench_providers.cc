// The bench sides of this build's providers: those listed by builtin_providers.cmake
// that define docket_<name>_bench, in its order. The list reaches this file as the
// generated header bench_provider_list.h: DOCKET_BENCH_PROVIDERS(X), X(name) each.
#include "bench_provider_list.h"
#include "bench_registry.h"

#define DOCKET_DECLARE_BENCH_SIDES(name)     \
  namespace docket::name {                   \
  const bench::ProviderBench& bench_sides(); \
  }
DOCKET_BENCH_PROVIDERS(DOCKET_DECLARE_BENCH_SIDES)
#undef DOCKET_DECLARE_BENCH_SIDES

namespace docket::bench {

std::span<const BenchProviderEntry> bench_providers() {
#define DOCKET_LIST_BENCH_SIDES(name) BenchProviderEntry{#name, &docket::name::bench_sides()},
  static const std::vector<BenchProviderEntry> entries{
      DOCKET_BENCH_PROVIDERS(DOCKET_LIST_BENCH_SIDES)};
#undef DOCKET_LIST_BENCH_SIDES
  return entries;
}

}  // namespace docket::bench
