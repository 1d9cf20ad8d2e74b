#include "postgres_raw_claim.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "postgres_raw_pg_params.h"
#include "providers/postgres/postgres_claim_sql.h"
#include "providers/postgres/postgres_text_array.h"

namespace docket::bench {
namespace {

namespace claim_sql = postgres::detail::claim_sql;

// How often docket's store runs kTryClaim before giving up (claim_inbox_store.cc).
constexpr int kClaimRuns = 4;
constexpr std::int64_t kClaimLeaseMicros =
    std::chrono::duration_cast<std::chrono::microseconds>(kBenchClaimLease).count();
constexpr std::array<Oid, 7> kTryClaimTypes{kPgText, kPgText, kPgText, kPgText,
                                            kPgText, kPgInt8, kPgInt8};
constexpr std::array<Oid, 6> kMarkTypes{kPgText, kPgText, kPgText, kPgText, kPgText, kPgInt8};
// The statements' `now`, bound NULL as docket's store binds it on a real clock: the
// server's clock is read in the statement (claim_sql.h's DOCKET_CLAIM_CLOCK).
constexpr RawPgParam kServerClock{nullptr, 0, kPgBinary};

// The statements' names are NUL-terminated literals (claim_sql.h).
const char* name_of(const claim_sql::Statement& statement) {
  return statement.name.data();
}

// The big-endian bytes of an integer column of a binary row, as docket's Result reads
// them; 0 for NULL.
std::uint64_t binary_bits(const PGresult* result, int row, int column) {
  if (PQgetisnull(result, row, column) != 0) {
    return 0;
  }
  const char* bytes = PQgetvalue(result, row, column);
  std::uint64_t bits = 0;
  for (int i = 0; i < PQgetlength(result, row, column); ++i) {
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
  db_.prepare(std::string(claim_sql::kTryClaimBatch.name),
              std::string(claim_sql::kTryClaimBatch.sql), kTryClaimTypes);
  db_.prepare(std::string(claim_sql::kMarkProcessedBatch.name),
              std::string(claim_sql::kMarkProcessedBatch.sql), kMarkTypes);
}

RawClaimPostgres::Claim RawClaimPostgres::claim(std::string_view message_id, std::string claim_id) {
  const PgInt8 lease(kClaimLeaseMicros);
  const std::array params{
      pg_text(kBenchClaimTenant), pg_text(message_id), pg_text(handler_type_), pg_text(owner_),
      pg_text(claim_id),          kServerClock,        lease.param()};
  for (int run = 0; run < kClaimRuns; ++run) {
    const RawPgResult result = db_.query(name_of(claim_sql::kTryClaim), params, kPgBinary);
    if (PQntuples(result.get()) == 1) {
      // Columns: claimed (bool), status, retry_count (int4), lease_until (int8 or NULL).
      return Claim{.claimed = *PQgetvalue(result.get(), 0, 0) != 0,
                   .retry_count = static_cast<std::int64_t>(binary_bits(result.get(), 0, 2)),
                   .lease_until = static_cast<std::int64_t>(binary_bits(result.get(), 0, 3)),
                   .claim_id = std::move(claim_id)};
    }
  }
  throw InfrastructureError("raw PostgreSQL claim baseline: try_claim of message '" +
                            std::string(message_id) + "' returned no row " +
                            std::to_string(kClaimRuns) + " times");
}

void RawClaimPostgres::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                             ClaimCycleCounts& counts) {
  const Claim claimed = claim(message_id, Uuid::v7().to_string());
  if (!claimed.claimed) {
    ++counts.skipped;
    return;
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);
  const std::array params{pg_text(kBenchClaimTenant), pg_text(message_id),
                          pg_text(handler_type_),     pg_text(owner_),
                          pg_text(claimed.claim_id),  kServerClock};
  if (db_.run(name_of(claim_sql::kMarkProcessed), params) == 1) {
    ++counts.processed;
  }
}

void RawClaimPostgres::cycle_batch(std::span<const std::string_view> message_ids,
                                   ClaimEffectWriter* effect, ClaimCycleCounts& counts) {
  // The batch's terms as the store binds them: text[] literals, one element an entry.
  std::vector<std::string> ids(message_ids.begin(), message_ids.end());
  const std::string tenants = postgres::detail::text_array_literal(
      std::vector<std::string>(ids.size(), std::string(kBenchClaimTenant)));
  const std::string messages = postgres::detail::text_array_literal(ids);
  const std::string handlers =
      postgres::detail::text_array_literal(std::vector<std::string>(ids.size(), handler_type_));
  // One token per entry, as the store's front end makes them.
  std::vector<std::string> claim_ids(ids.size());
  for (std::string& id : claim_ids) {
    id = Uuid::v7().to_string();
  }
  const std::string owners =
      postgres::detail::text_array_literal(std::vector<std::string>(ids.size(), owner_));
  const std::string claim_id_array = postgres::detail::text_array_literal(claim_ids);
  const PgInt8 lease(kClaimLeaseMicros);
  const std::array claim_params{pg_text(tenants), pg_text(messages),       pg_text(handlers),
                                pg_text(owners),  pg_text(claim_id_array), kServerClock,
                                lease.param()};
  // Rows: ord, claimed, status, retry_count, lease_until (binary); an entry without a
  // row is claimed on its own, as the store does.
  std::vector<char> claimed(ids.size(), 0);
  std::vector<char> answered(ids.size(), 0);
  {
    const RawPgResult result =
        db_.query(name_of(claim_sql::kTryClaimBatch), claim_params, kPgBinary);
    for (int row = 0; row < PQntuples(result.get()); ++row) {
      const std::size_t i = binary_bits(result.get(), row, 0) - 1;
      answered.at(i) = 1;
      claimed.at(i) = *PQgetvalue(result.get(), row, 1) != 0 ? 1 : 0;
    }
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (answered[i] == 0) {
      claimed[i] = claim(ids[i], claim_ids[i]).claimed ? 1 : 0;
    }
    if (claimed[i] == 0) {
      ++counts.skipped;
      continue;
    }
    ++counts.claimed;
    run_effect(effect, ids[i], counts);
  }
  std::vector<std::string> done;
  std::vector<std::string> done_claims;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (claimed[i] != 0) {
      done.push_back(ids[i]);
      done_claims.push_back(claim_ids[i]);
    }
  }
  if (done.empty()) {
    return;
  }
  const std::string done_tenants = postgres::detail::text_array_literal(
      std::vector<std::string>(done.size(), std::string(kBenchClaimTenant)));
  const std::string done_messages = postgres::detail::text_array_literal(done);
  const std::string done_handlers =
      postgres::detail::text_array_literal(std::vector<std::string>(done.size(), handler_type_));
  const std::string done_owners =
      postgres::detail::text_array_literal(std::vector<std::string>(done.size(), owner_));
  const std::string done_claim_ids = postgres::detail::text_array_literal(done_claims);
  const std::array mark_params{pg_text(done_tenants),   pg_text(done_messages),
                               pg_text(done_handlers),  pg_text(done_owners),
                               pg_text(done_claim_ids), kServerClock};
  counts.processed +=
      static_cast<std::uint64_t>(db_.run(name_of(claim_sql::kMarkProcessedBatch), mark_params));
}

}  // namespace docket::bench
