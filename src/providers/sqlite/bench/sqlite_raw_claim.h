// The raw limit of the claim inbox on SQLite: what docket's claim runner and SQLite
// claim inbox store do for a message, written directly against the C API.
//
// The statements are the store's own constants (src/providers/sqlite/
// sqlite_claim_inbox_sql.h), in the same transaction shape (sqlite_claim_inbox_store.cc):
//   try_claim:      BEGIN IMMEDIATE; kTryClaim (its row read); only when it returned
//                   none, kClaimHolder; COMMIT;
//   the handler:    its effect (claim_effect_sqlite.h), when the claim was ours;
//   mark_processed: kMarkProcessed in autocommit, when the claim was ours.
// A batch (--batch) is its claims under one BEGIN IMMEDIATE, the effects, then its
// marks under another, as the store's try_claim_batch and mark_processed_batch.
// Each claim binds a fresh UUIDv7 claim id, which its mark presents, as docket's store
// and its front end do. "now" is read from the system clock after the write lock is
// taken, as docket's store does. Every statement (BEGIN and COMMIT included) is
// prepared once per connection: the honest lower bound, which docket is held to.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_SQLITE_BENCH_RAW_CLAIM_SQLITE_H_
#define DOCKET_PROVIDERS_SQLITE_BENCH_RAW_CLAIM_SQLITE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "claim_session.h"
#include "sqlite_raw.h"

namespace docket::bench {

// What the checks count: the entries of a handler type, and those processed.
inline constexpr std::string_view kCountClaimEntriesSql =
    "SELECT count(*) FROM docket_claim_inbox WHERE handler_type = ?1";
inline constexpr std::string_view kCountProcessedClaimsSql =
    "SELECT count(*) FROM docket_claim_inbox WHERE handler_type = ?1 AND status = 'processed'";

class RawClaimSqlite final : public ClaimSession {
 public:
  RawClaimSqlite(const std::string& path, std::string_view handler_type, std::string_view owner);

  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;
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

  // One claim in a transaction of its own; claim_locked inside the caller's, under
  // `claim_id` (made before the lock is taken, as the store's front end makes it).
  Claim claim(std::string_view message_id);
  Claim claim_locked(std::string_view message_id, std::string claim_id, std::int64_t now);
  // kMarkProcessed of the claim `claim_id`, in autocommit or the caller's transaction;
  // true when it marked.
  bool mark(std::string_view message_id, std::string_view claim_id, std::int64_t now);
  // Binds the entry's key as ?1-?3, and the token (owner, claim id) as ?4-?5 when given.
  void bind_key(RawStatement& statement, std::string_view message_id,
                std::optional<std::string_view> claim_id = std::nullopt);

  std::string handler_type_;
  std::string owner_;
  RawSqlite db_;
  RawStatement begin_;
  RawStatement commit_;
  RawStatement try_claim_;
  RawStatement holder_;
  RawStatement mark_processed_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_SQLITE_BENCH_RAW_CLAIM_SQLITE_H_
