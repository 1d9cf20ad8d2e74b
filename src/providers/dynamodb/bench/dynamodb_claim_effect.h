// The claim bench's effect on DynamoDB (bench/claim_effect.h): one PutItem, with no
// condition, of an item keyed by a fresh UUIDv7 into <table_prefix>docket_bench_claim_effects
// of the side, as Powertools' bench handler puts its effect item; and what the checks
// count there.
//
// Thread-safety: a writer belongs to one thread (its own client and connection); the
// free functions may be called from many threads.
#ifndef DOCKET_PROVIDERS_DYNAMODB_BENCH_CLAIM_EFFECT_DYNAMODB_H_
#define DOCKET_PROVIDERS_DYNAMODB_BENCH_CLAIM_EFFECT_DYNAMODB_H_

#include <string>
#include <string_view>

#include "claim_effect.h"
#include "claim_workload.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_schema.h"

namespace docket::bench {

// The claim effects table of the side `url`: keyed by id (S); run_id, message_id and body
// beside it.
dynamodb::detail::TableSchema dynamodb_claim_effects_table_schema(const std::string& url);

// Makes the table of the side `url` when missing.
void ensure_dynamodb_claim_effects_table(const std::string& url);

// The run's effect items in the side `url` and the distinct message ids among them: a
// consistent Scan, not counted as either side's requests. Sets rows.effects and
// rows.effect_messages.
void count_dynamodb_claim_effects(const std::string& url, std::string_view run_id, ClaimRows& rows);

class ClaimEffectDynamoDb final : public ClaimEffectWriter {
 public:
  // `url`: the side's store URL (its claim effects table made already).
  ClaimEffectDynamoDb(const std::string& url, std::string_view run_id);

  void write(std::string_view message_id) override;

 private:
  dynamodb::detail::Client client_;
  std::string table_;
  std::string run_id_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_DYNAMODB_BENCH_CLAIM_EFFECT_DYNAMODB_H_
