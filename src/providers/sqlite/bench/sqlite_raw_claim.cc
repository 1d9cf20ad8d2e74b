#include "sqlite_raw_claim.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "providers/sqlite/sqlite_claim_inbox_sql.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

namespace claim_sql = sqlite::detail::claim_sql;

// The busy timeout docket's SQLite store uses by default (docket::sqlite::StoreOptions).
constexpr std::int64_t kClaimLeaseMicros =
    std::chrono::duration_cast<std::chrono::microseconds>(kBenchClaimLease).count();

}  // namespace

RawClaimSqlite::RawClaimSqlite(const std::string& path, std::string_view handler_type,
                               std::string_view owner)
    : handler_type_(handler_type),
      owner_(owner),
      db_(path, kRawBusyTimeout),
      begin_(db_, "BEGIN IMMEDIATE"),
      commit_(db_, "COMMIT"),
      try_claim_(db_, std::string(claim_sql::kTryClaim)),
      holder_(db_, std::string(claim_sql::kClaimHolder)),
      mark_processed_(db_, std::string(claim_sql::kMarkProcessed)) {}

void RawClaimSqlite::bind_key(RawStatement& statement, std::string_view message_id,
                              std::optional<std::string_view> claim_id) {
  statement.bind_text(1, kBenchClaimTenant);
  statement.bind_text(2, message_id);
  statement.bind_text(3, handler_type_);
  if (claim_id) {
    statement.bind_text(4, owner_);
    statement.bind_text(5, *claim_id);
  }
}

RawClaimSqlite::Claim RawClaimSqlite::claim(std::string_view message_id) {
  std::string claim_id = Uuid::v7().to_string();
  begin_.run();
  try {
    // After the lock is ours, as docket reads it.
    Claim result = claim_locked(message_id, std::move(claim_id), now_micros());
    commit_.run();
    return result;
  } catch (...) {
    db_.rollback_and_rethrow();
  }
}

RawClaimSqlite::Claim RawClaimSqlite::claim_locked(std::string_view message_id,
                                                   std::string claim_id, std::int64_t now) {
  {
    Claim result{.claim_id = std::move(claim_id)};
    bind_key(try_claim_, message_id, result.claim_id);
    try_claim_.bind_int64(6, now);
    try_claim_.bind_int64(7, now + kClaimLeaseMicros);
    // The rows are read as docket's store reads them.
    while (try_claim_.step()) {
      result.claimed = true;
      result.retry_count = try_claim_.column_int64(0);
      result.lease_until = try_claim_.column_int64(1);
    }
    try_claim_.reset();
    if (!result.claimed) {
      bind_key(holder_, message_id);
      bool found = false;
      while (holder_.step()) {
        found = true;
        result.retry_count = holder_.column_int64(1);
        result.lease_until = holder_.column_is_null(2) ? 0 : holder_.column_int64(2);
      }
      holder_.reset();
      if (!found) {
        throw InfrastructureError("raw SQLite claim baseline on '" + db_.path() +
                                  "': the claim upsert neither wrote nor found message '" +
                                  std::string(message_id) + "'");
      }
    }
    return result;
  }
}

bool RawClaimSqlite::mark(std::string_view message_id, std::string_view claim_id,
                          std::int64_t now) {
  bind_key(mark_processed_, message_id, claim_id);
  mark_processed_.bind_int64(6, now);
  return mark_processed_.run() == 1;
}

void RawClaimSqlite::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                           ClaimCycleCounts& counts) {
  const Claim claimed = claim(message_id);
  if (!claimed.claimed) {
    ++counts.skipped;
    return;
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);
  if (mark(message_id, claimed.claim_id, now_micros())) {
    ++counts.processed;
  }
}

void RawClaimSqlite::cycle_batch(std::span<const std::string_view> message_ids,
                                 ClaimEffectWriter* effect, ClaimCycleCounts& counts) {
  // The claims under one BEGIN IMMEDIATE, the effects, the marks under another.
  std::vector<std::string> claim_ids(message_ids.size());
  for (std::string& id : claim_ids) {
    id = Uuid::v7().to_string();
  }
  std::vector<Claim> claimed(message_ids.size());
  begin_.run();
  try {
    const std::int64_t now = now_micros();
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      claimed[i] = claim_locked(message_ids[i], std::move(claim_ids[i]), now);
    }
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  for (std::size_t i = 0; i < message_ids.size(); ++i) {
    if (claimed[i].claimed) {
      ++counts.claimed;
      run_effect(effect, message_ids[i], counts);
    } else {
      ++counts.skipped;
    }
  }
  begin_.run();
  try {
    const std::int64_t now = now_micros();
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      if (claimed[i].claimed && mark(message_ids[i], claimed[i].claim_id, now)) {
        ++counts.processed;
      }
    }
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
}

}  // namespace docket::bench
