// The raw limit of the claim inbox on PostgreSQL: what docket's claim runner and
// PostgreSQL claim inbox store do for a message, written directly against libpq.
//
// The statements are the store's own constants (src/providers/postgres/postgres_claim_sql.h),
// prepared once per connection under the store's names and with the parameter types
// docket binds (text, then int8 times), in the same shape (claim_inbox_store.cc): one
// autocommit kTryClaim (its binary row read, run again when it returned none, as
// docket's store does), then, when it claimed, the handler's effect
// (claim_effect_postgres.h) and one autocommit kMarkProcessed of that claim's token (a
// fresh UUIDv7 claim id per claim, as docket's front end makes). "now" is bound NULL,
// so that the statements read the server's clock, as docket's store does on a real
// clock.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_CLAIM_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_CLAIM_POSTGRES_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "claim_session.h"
#include "postgres_raw.h"

namespace docket::bench {

// What the checks count: the entries of a handler type, and those processed.
inline constexpr std::string_view kPostgresCountClaimEntriesSql =
    "SELECT count(*) FROM docket_claim_inbox WHERE handler_type = $1";
inline constexpr std::string_view kPostgresCountProcessedClaimsSql =
    "SELECT count(*) FROM docket_claim_inbox WHERE handler_type = $1 AND status = 'processed'";

class RawClaimPostgres final : public ClaimSession {
 public:
  // `url`: a libpq URL whose search_path is the raw baseline's schema (migrated).
  RawClaimPostgres(const std::string& url, std::string_view handler_type, std::string_view owner);

  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;
  // A batch: kTryClaimBatch (kTryClaim for an entry it answered no row for), the
  // effects, then kMarkProcessedBatch for the entries claimed.
  void cycle_batch(std::span<const std::string_view> message_ids, ClaimEffectWriter* effect,
                   ClaimCycleCounts& counts) override;

 private:
  // What try_claim returned (times in Unix microseconds) and the claim id it bound.
  struct Claim {
    bool claimed = false;
    std::int64_t retry_count = 0;
    std::int64_t lease_until = 0;
    std::string claim_id;
  };

  // kTryClaim under `claim_id` until it returns its row.
  Claim claim(std::string_view message_id, std::string claim_id);

  std::string handler_type_;
  std::string owner_;
  RawPostgres db_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_CLAIM_POSTGRES_H_
