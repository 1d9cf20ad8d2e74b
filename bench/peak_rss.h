// The process's peak resident set size, for benchmarks that must show memory stays
// flat as a run grows.
//
// Thread-safety: safe from any thread.
#ifndef DOCKET_BENCH_PEAK_RSS_H_
#define DOCKET_BENCH_PEAK_RSS_H_

#include <cstdint>

namespace docket::bench {

// getrusage(RUSAGE_SELF).ru_maxrss in bytes: the largest resident set the process
// has had so far (it never decreases). Throws InfrastructureError if getrusage fails.
std::uint64_t peak_rss_bytes();

}  // namespace docket::bench

#endif  // DOCKET_BENCH_PEAK_RSS_H_
