#include "postgres_claim_effect.h"

#include <array>

#include "docket/core/uuid.h"
#include "postgres_raw_pg_params.h"

namespace docket::bench {
namespace {

constexpr const char* kClaimEffectInsertName = "docket_bench_claim_effect";
constexpr std::array<Oid, 4> kClaimEffectInsertTypes{kPgText, kPgText, kPgText, kPgText};

}  // namespace

ClaimEffectPostgres::ClaimEffectPostgres(const std::string& url, std::string_view run_id)
    : run_id_(run_id), db_(url, RawPostgres::Counting::kUncounted) {
  db_.prepare(kClaimEffectInsertName, std::string(kClaimEffectInsertSql), kClaimEffectInsertTypes);
}

void ClaimEffectPostgres::write(std::string_view message_id) {
  const std::string id = Uuid::v7().to_string();
  const std::array params{pg_text(id), pg_text(run_id_), pg_text(message_id),
                          pg_text(kClaimEffectBody)};
  db_.run(kClaimEffectInsertName, params);
}

}  // namespace docket::bench
