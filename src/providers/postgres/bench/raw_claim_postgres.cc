#include "raw_claim_postgres.h"

#include <array>
#include <chrono>
#include <cstdint>

#include "docket/error.h"
#include "providers/postgres/claim_sql.h"
#include "raw_pg_params.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

namespace claim_sql = postgres::claim_sql;

// How often docket's store runs kTryClaim before giving up (claim_inbox_store.cc).
constexpr int kClaimRuns = 4;
constexpr std::int64_t kClaimLeaseMicros =
    std::chrono::duration_cast<std::chrono::microseconds>(kBenchClaimLease).count();
constexpr std::array<Oid, 6> kTryClaimTypes{kPgText, kPgText, kPgText, kPgText, kPgInt8, kPgInt8};
constexpr std::array<Oid, 5> kMarkTypes{kPgText, kPgText, kPgText, kPgText, kPgInt8};

// The statements' names are NUL-terminated literals (claim_sql.h).
const char* name_of(const claim_sql::Statement& statement) {
  return statement.name.data();
}

// The big-endian bytes of an integer column of a binary row, as docket's Result reads
// them; 0 for NULL.
std::uint64_t binary_bits(const PGresult* result, int column) {
  if (PQgetisnull(result, 0, column) != 0) {
    return 0;
  }
  const char* bytes = PQgetvalue(result, 0, column);
  std::uint64_t bits = 0;
  for (int i = 0; i < PQgetlength(result, 0, column); ++i) {
    bits = bits << 8 | static_cast<unsigned char>(bytes[i]);
  }
  return bits;
}

}  // namespace

RawClaimPostgres::RawClaimPostgres(const std::string& url, std::string_view handler_type,
                                   std::string_view owner)
    : handler_type_(handler_type), owner_(owner), db_(url) {
  db_.prepare(std::string(claim_sql::kTryClaim.name), std::string(claim_sql::kTryClaim.sql),
              kTryClaimTypes);
  db_.prepare(std::string(claim_sql::kMarkProcessed.name),
              std::string(claim_sql::kMarkProcessed.sql), kMarkTypes);
}

RawClaimPostgres::Claim RawClaimPostgres::claim(std::string_view message_id) {
  const std::int64_t now_us = now_micros();
  const PgInt8 now(now_us);
  const PgInt8 lease_until(now_us + kClaimLeaseMicros);
  const std::array params{pg_text(kBenchClaimTenant),
                          pg_text(message_id),
                          pg_text(handler_type_),
                          pg_text(owner_),
                          now.param(),
                          lease_until.param()};
  for (int run = 0; run < kClaimRuns; ++run) {
    const RawPgResult result = db_.query(name_of(claim_sql::kTryClaim), params, kPgBinary);
    if (PQntuples(result.get()) == 1) {
      // Columns: claimed (bool), status, retry_count (int4), lease_until (int8 or NULL).
      return Claim{.claimed = *PQgetvalue(result.get(), 0, 0) != 0,
                   .retry_count = static_cast<std::int64_t>(binary_bits(result.get(), 2)),
                   .lease_until = static_cast<std::int64_t>(binary_bits(result.get(), 3))};
    }
  }
  throw InfrastructureError("raw PostgreSQL claim baseline: try_claim of message '" +
                            std::string(message_id) + "' returned no row " +
                            std::to_string(kClaimRuns) + " times");
}

void RawClaimPostgres::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                             ClaimCycleCounts& counts) {
  if (!claim(message_id).claimed) {
    ++counts.skipped;
    return;
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);
  const PgInt8 now(now_micros());
  const std::array params{pg_text(kBenchClaimTenant), pg_text(message_id), pg_text(handler_type_),
                          pg_text(owner_), now.param()};
  if (db_.run(name_of(claim_sql::kMarkProcessed), params) == 1) {
    ++counts.processed;
  }
}

}  // namespace docket::bench
