// A batch of deliveries as a document store's raw inbox commits it: one write per message,
// since one transactional batch (Cosmos DB), transaction (DynamoDB) or commit (Firestore)
// cannot create the same item twice. A message delivered twice within one batch counts
// its later deliveries as duplicates of its first, as docket's dispatcher does.
//
// Invariant: the result holds each message id of `batch` once, at its first delivery,
// in batch order; counts.skipped_duplicates grows by batch.size() minus its size.
//
// Thread-safety: a pure function.
#ifndef DOCKET_BENCH_FIRST_DELIVERIES_H_
#define DOCKET_BENCH_FIRST_DELIVERIES_H_

#include <algorithm>
#include <span>
#include <vector>

#include "inbox_workload.h"

namespace docket::bench {

// The first delivery of each message in `batch`; every later one counted a duplicate.
inline std::vector<const BenchDelivery*> first_deliveries(std::span<const BenchDelivery> batch,
                                                          DispatchCounts& counts) {
  std::vector<const BenchDelivery*> first;
  first.reserve(batch.size());
  for (const BenchDelivery& delivery : batch) {
    const bool repeated = std::any_of(
        first.begin(), first.end(),
        [&](const BenchDelivery* earlier) { return earlier->message_id == delivery.message_id; });
    if (repeated) {
      ++counts.skipped_duplicates;
    } else {
      first.push_back(&delivery);
    }
  }
  return first;
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_FIRST_DELIVERIES_H_
