// The claim bench's effect on SQLite (bench/claim_effect.h): one autocommit INSERT of a
// row keyed by a fresh UUIDv7 into docket_bench_claim_effects, on a connection of the
// writer's own configured as docket's (WAL, synchronous=FULL), as a handler that owns
// its connection writes it: one durable commit.
//
// Thread-safety: a writer belongs to one thread.
#ifndef DOCKET_PROVIDERS_SQLITE_BENCH_CLAIM_EFFECT_SQLITE_H_
#define DOCKET_PROVIDERS_SQLITE_BENCH_CLAIM_EFFECT_SQLITE_H_

#include <string>
#include <string_view>

#include "claim_effect.h"
#include "sqlite_raw.h"

namespace docket::bench {

class ClaimEffectSqlite final : public ClaimEffectWriter {
 public:
  // `path`: the side's file (its effects table made already).
  ClaimEffectSqlite(const std::string& path, std::string_view run_id);

  void write(std::string_view message_id) override;

 private:
  std::string run_id_;
  RawSqlite db_;
  RawStatement insert_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_SQLITE_BENCH_CLAIM_EFFECT_SQLITE_H_
