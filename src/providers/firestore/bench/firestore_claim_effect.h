// The claim bench's effect on Firestore (bench/claim_effect.h): one commit of one write,
// with no precondition, of a document named by a fresh UUIDv7 in the side's
// docket_bench_claim_effects collection; and what the checks count there.
//
// Thread-safety: a writer belongs to one thread (its own client and connection); the
// free functions may be called from many threads.
#ifndef DOCKET_PROVIDERS_FIRESTORE_BENCH_CLAIM_EFFECT_FIRESTORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_BENCH_CLAIM_EFFECT_FIRESTORE_H_

#include <string>
#include <string_view>

#include "claim_effect.h"
#include "claim_workload.h"
#include "providers/firestore/firestore_client.h"

namespace docket::bench {

// The claim effects collection of the side `url`.
std::string firestore_claim_effects_collection(const std::string& url);

// The run's effect documents in the side `url` and the distinct message ids among them,
// read with a query not counted as either side's requests. Sets rows.effects and
// rows.effect_messages.
void count_firestore_claim_effects(const std::string& url, std::string_view run_id,
                                   ClaimRows& rows);

class ClaimEffectFirestore final : public ClaimEffectWriter {
 public:
  ClaimEffectFirestore(const std::string& url, std::string_view run_id);

  void write(std::string_view message_id) override;

 private:
  firestore::detail::Client client_;
  std::string collection_;
  std::string run_id_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_FIRESTORE_BENCH_CLAIM_EFFECT_FIRESTORE_H_
