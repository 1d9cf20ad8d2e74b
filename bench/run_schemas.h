// The namespaces a benchmark run made for itself on its store (PostgreSQL schemas of the
// run's own, ProviderBench::create_sides), dropped when the run ends, also when it
// fails: a relay claims every pending row of its table, so parallel runs must not share
// one.
//
//   const RunSchemas schemas(store);      // before create_sides
//   store.provider->create_sides(store);
//
// Thread-safety: a scope guard of the thread that runs the benchmark.
#ifndef DOCKET_BENCH_RUN_SCHEMAS_H_
#define DOCKET_BENCH_RUN_SCHEMAS_H_

#include "bench_provider.h"
#include "bench_store.h"

namespace docket::bench {

class RunSchemas {
 public:
  explicit RunSchemas(const BenchStore& store) : store_(store) {}
  ~RunSchemas() {
    try {
      store_.provider->drop_sides(store_);
    } catch (...) {  // the run's outcome matters more than its clean-up
    }
  }
  RunSchemas(const RunSchemas&) = delete;
  RunSchemas& operator=(const RunSchemas&) = delete;

 private:
  const BenchStore& store_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_RUN_SCHEMAS_H_
