// The claim bench's effect on Cosmos DB (bench/claim_effect.h): one item per effect in the
// side's container {prefix}docket_bench_claim_effects (partition key "/id"), id a fresh
// UUIDv7, with the run id and the message id, written by one point create through a
// client that counts no round trips (the bench adds one a written effect to each side).
//
// Thread-safety: a writer belongs to one thread; the functions may be called from any.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_CLAIM_EFFECT_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_CLAIM_EFFECT_H_

#include <string>
#include <string_view>

#include "claim_effect.h"
#include "claim_workload.h"
#include "providers/cosmos/cosmos_client.h"

namespace docket::bench {

// Makes the effects container on the side `url` when missing.
void ensure_cosmos_claim_effects(const std::string& url);
// Adds the run `run_id`'s effects on the side `url`, and their distinct messages, to
// `rows` (one query across partitions).
void count_cosmos_claim_effects(const std::string& url, std::string_view run_id, ClaimRows& rows);

class ClaimEffectCosmos final : public ClaimEffectWriter {
 public:
  ClaimEffectCosmos(const std::string& url, std::string_view run_id);
  void write(std::string_view message_id) override;

 private:
  cosmos::detail::Client client_;
  std::string container_;
  std::string run_id_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_CLAIM_EFFECT_H_
