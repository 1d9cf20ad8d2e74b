// The claim bench's effect on Redis (bench/claim_effect.h): one HSET of a hash keyed by
// the run and a fresh UUIDv7, P docket_bench_claim_effects:{run id}:{uuid}, holding the
// run id, the message id and the body, on a connection of the writer's own (a handler
// owning its connection): one round trip, fsynced as the server's appendfsync says. Its
// round trips are left out of RawRedis::round_trips(); the bench counts the effects
// itself. The checks count a run's effects by their keys (count_redis_claim_effects).
//
// Thread-safety: a writer belongs to one thread.
#ifndef DOCKET_PROVIDERS_REDIS_BENCH_REDIS_CLAIM_EFFECT_H_
#define DOCKET_PROVIDERS_REDIS_BENCH_REDIS_CLAIM_EFFECT_H_

#include <string>
#include <string_view>

#include "claim_effect.h"
#include "claim_workload.h"
#include "redis_raw.h"

namespace docket::bench {

class ClaimEffectRedis final : public ClaimEffectWriter {
 public:
  // `url`: a side's Redis store URL.
  ClaimEffectRedis(const std::string& url, std::string_view run_id);

  void write(std::string_view message_id) override;

 private:
  std::string run_id_;
  RawRedis db_;
  std::string key_prefix_;  // P docket_bench_claim_effects:{run id}:
};

// Adds the effects of the run `run_id` in the side `url`, and the distinct message ids
// among them, to `rows`.
void count_redis_claim_effects(const std::string& url, std::string_view run_id, ClaimRows& rows);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_REDIS_BENCH_REDIS_CLAIM_EFFECT_H_
