// One container's partition key ranges (cosmos_partition_ranges.h), kept for a short
// while, for the reads where a stale list can only delay: a relay's claim. A claim reads
// its pending messages in pages, each a query over every range, several times a second;
// reading the ranges before each would cost a request a page (on Cosmos DB, the request
// units too). With the cache a claim reads them at most once per kMaxAge.
//
// Why only there: a list gone stale (the ranges split, merged, or the container made
// again under its name) answers a query naming a range that is no more with 410, on which
// the cache forgets the list and the query starts over on a fresh one; a stale list that
// still names live ranges but not all of them (a container made again with more) misses
// items silently until the list ages out. A pending message the claim misses is still
// pending and met by a claim after kMaxAge; a feed read or a listing that missed an item
// could be passed by its reader for ever, so those read the ranges afresh each time.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_PARTITION_RANGE_CACHE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_PARTITION_RANGE_CACHE_H_

#include <chrono>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail {

class PartitionRangeCache {
 public:
  static constexpr std::chrono::seconds kMaxAge{1};

  // The ranges of `container`, read again when none are kept, they were read for another
  // container, or they are older than kMaxAge.
  std::vector<std::string> ranges(const Client& client, std::string_view container);

  // Drops the list: a query met a range that is no more (410).
  void forget();

 private:
  std::mutex mutex_;
  std::string container_;
  std::vector<std::string> ranges_;
  std::chrono::steady_clock::time_point read_at_{};
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_PARTITION_RANGE_CACHE_H_
