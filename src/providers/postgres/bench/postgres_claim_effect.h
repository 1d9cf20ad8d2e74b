// The claim bench's effect on PostgreSQL (bench/claim_effect.h): one autocommit INSERT,
// prepared once, of a row keyed by a fresh UUIDv7 into docket_bench_claim_effects of the
// side's schema, on a connection of the writer's own (a handler owning its connection):
// one round trip and one WAL flush. Its round trips are left out of
// RawPostgres::round_trips(); the bench counts the effects itself.
//
// Thread-safety: a writer belongs to one thread.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_CLAIM_EFFECT_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_CLAIM_EFFECT_POSTGRES_H_

#include <string>
#include <string_view>

#include "claim_effect.h"
#include "postgres_raw.h"

namespace docket::bench {

class ClaimEffectPostgres final : public ClaimEffectWriter {
 public:
  // `url`: a libpq URL whose search_path is the side's schema (its effects table made).
  ClaimEffectPostgres(const std::string& url, std::string_view run_id);

  void write(std::string_view message_id) override;

 private:
  std::string run_id_;
  RawPostgres db_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_CLAIM_EFFECT_POSTGRES_H_
