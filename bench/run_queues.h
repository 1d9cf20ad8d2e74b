// The queues a benchmark run made on a broker for itself (one consumer group per
// destination), declared through docket's transport and deleted by the transport's
// bench part (bench_transport.h) when the run ends, also when it fails: a publish no
// queue is bound for is unroutable, so each is declared before anything is published.
//
//   RunQueues queues(transport_bench(url), url, "bench");
//   queues.declare(*transport, destination);
//
// Thread-safety: a scope guard of the thread that runs the benchmark.
#ifndef DOCKET_BENCH_RUN_QUEUES_H_
#define DOCKET_BENCH_RUN_QUEUES_H_

#include <string>
#include <utility>
#include <vector>

#include "bench_transport.h"
#include "docket/transports/transport.h"

namespace docket::bench {

class RunQueues {
 public:
  RunQueues(const TransportBench& raw, std::string url, std::string group)
      : raw_(raw), url_(std::move(url)), group_(std::move(group)) {}
  ~RunQueues() {
    for (const std::string& destination : destinations_) {
      try {
        raw_.remove(url_, destination, group_);
      } catch (...) {  // the run's outcome matters more than its clean-up
      }
    }
  }
  RunQueues(const RunQueues&) = delete;
  RunQueues& operator=(const RunQueues&) = delete;

  // Declares the group's queue of `destination` (subscribing, then closing at once).
  void declare(Transport& transport, const std::string& destination) {
    destinations_.push_back(destination);
    transport.subscribe({.destination = destination, .group = group_, .prefetch = 1}).close();
  }

 private:
  const TransportBench& raw_;
  std::string url_;
  std::string group_;
  std::vector<std::string> destinations_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_RUN_QUEUES_H_
