// The Redis claim inbox's reads (redis_claim_inbox_store.h lists how each runs): an
// entry's hash turned back into a ClaimEntry through the kit (kit::claim_entry), and the
// listings over the indexes, each page of entries read in one pipelined round trip.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_READS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_READS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "docket/inbox/claim_inbox_store.h"
#include "providers/redis/redis_pool.h"

namespace docket::redis::detail {

class ClaimReads {
 public:
  explicit ClaimReads(Pool& pool);

  // The entry under `id`, or nullopt.
  std::optional<ClaimEntry> find(const std::string& id);
  // Failed entries due at `now` (Unix microseconds) with fewer than `max_retries`
  // failures, earliest due first, at most `limit`.
  std::vector<ClaimEntry> failed_due(std::int64_t now, std::uint32_t max_retries,
                                     std::size_t limit);
  ClaimCounts counts(const std::optional<TenantId>& tenant, std::int64_t now);
  ClaimPage entries(const ClaimPageRequest& request);
  std::uint64_t count_cleanable(const std::optional<TenantId>& tenant, std::int64_t cutoff);

 private:
  // The entries of `ids` (absent ones skipped), read in one round trip, in order.
  std::vector<ClaimEntry> read(const std::vector<std::string>& ids);

  Pool& pool_;
  std::string keys_;
  std::string processed_;
  std::string failed_;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_READS_H_
