// `docket bench claim` on Cosmos DB (bench/bench_provider.h's ClaimBench): docket's claim
// inbox store on a side's database, the raw cycle of cosmos_raw_claim.h, the effects of
// cosmos_claim_effect.h, and the checks' counts of a side's entries (one query across
// partitions of the claim container, bypassing docket).
//
// Thread-safety: immutable; every member may be called from many threads.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_CLAIM_BENCH_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_CLAIM_BENCH_H_

#include <memory>
#include <string>
#include <string_view>

#include "bench_provider.h"

namespace docket::bench {

class CosmosClaimBench final : public ClaimBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t threads) const override;
  void prepare(const BenchStore& store) const override;
  std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                   std::string_view run_id) const override;
  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override;
  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_CLAIM_BENCH_H_
