// The handler's effect in `docket bench claim`: what a claim-inbox consumer's handler
// does between the claim and the mark (docket/inbox/claim_runner.h), as AWS Lambda Powertools
// idempotency's bench handler does between its in-progress record and its completion.
//
// An effect is one item or row in the bench's claim effects table of the side's own
// database (docket_bench_claim_effects, under the side's prefix or schema), keyed by a
// fresh UUID and carrying the run id and the message id: a message handled twice leaves
// two effects, which the checks count. It is written on its own, outside the claim's
// transaction (the claim inbox does not make effects atomic with the entry), in exactly
// one request or autocommit statement.
//
// Each provider's bench side writes it (ClaimBench::effect_writer); both sides of a run
// use the very same writer, so the effect costs them alike and the ratio still measures
// the claim cycle.
//
// Thread-safety: a writer belongs to one thread.
#ifndef DOCKET_BENCH_CLAIM_EFFECT_H_
#define DOCKET_BENCH_CLAIM_EFFECT_H_

#include <string_view>

#include "claim_workload.h"

namespace docket::bench {

// The table (collection) of the claim bench's effects, under the side's prefix.
inline constexpr std::string_view kClaimEffectsTable = "docket_bench_claim_effects";
// The effect's body, about the size of Powertools' bench message body.
inline constexpr std::string_view kClaimEffectBody =
    R"({"kind":"bench","pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})";

// The effects table of the SQL providers, and what they run on it: one text for SQLite
// and PostgreSQL ($n parameters, which SQLite numbers in order of appearance).
inline constexpr std::string_view kClaimEffectsTableSql =
    "CREATE TABLE IF NOT EXISTS docket_bench_claim_effects (id TEXT PRIMARY KEY, "
    "run_id TEXT NOT NULL, message_id TEXT NOT NULL, body TEXT NOT NULL)";
// $1 a fresh UUID, $2 the run id, $3 the message id, $4 kClaimEffectBody.
inline constexpr std::string_view kClaimEffectInsertSql =
    "INSERT INTO docket_bench_claim_effects (id, run_id, message_id, body) "
    "VALUES ($1, $2, $3, $4)";
// The checks: the run's ($1) effects, and the distinct message ids among them.
inline constexpr std::string_view kCountClaimEffectsSql =
    "SELECT count(*) FROM docket_bench_claim_effects WHERE run_id = $1";
inline constexpr std::string_view kCountClaimEffectMessagesSql =
    "SELECT count(DISTINCT message_id) FROM docket_bench_claim_effects WHERE run_id = $1";

class ClaimEffectWriter {
 public:
  virtual ~ClaimEffectWriter() = default;

  // Writes one effect of `message_id` for the writer's run, in one request, committed
  // when it returns. It is not counted in the provider's round trips (RoundTrips): the
  // bench adds one a written effect to each side's. Throws what the database threw.
  virtual void write(std::string_view message_id) = 0;
};

// The handler's work for one claimed message: its effect, when the run writes them
// (`effect` is nullptr under --no-effect), counted.
inline void run_effect(ClaimEffectWriter* effect, std::string_view message_id,
                       ClaimCycleCounts& counts) {
  if (effect != nullptr) {
    effect->write(message_id);
    ++counts.effects;
  }
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_CLAIM_EFFECT_H_
