// The PostgreSQL ClaimInboxStore: every operation is one autocommit statement of
// claim_sql.h on a pooled connection, prepared once per connection; a batch's claims,
// or its marks, one statement for the whole batch. A claim writes its token (owner and
// claim id); marks, releases and renewals change the entry only for the token of its
// current claim. Leases are on the server's clock (lease_now()).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/postgres/claim_inbox_store.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_claim_inbox_schema.h"
#include "providers/postgres/postgres_claim_rows.h"
#include "providers/postgres/postgres_claim_sql.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_text_array.h"

namespace docket::postgres::detail {
namespace {

// How often try_claim runs its statement before giving up. A second run always sees the
// row the first missed (claim_sql::kTryClaim says why); a further miss needs the entry
// to be deleted and inserted again in between, and every run is bounded anyway.
constexpr int kClaimRuns = 4;

template <Bindable... Args>
Result run(Connection& conn, const claim_sql::Statement& statement, const Args&... args) {
  return exec_prepared_binary(conn, statement.name, statement.sql, args...);
}

// Runs a statement whose result is the number of rows it changed.
template <Bindable... Args>
std::int64_t change(Connection& conn, const claim_sql::Statement& statement, const Args&... args) {
  return exec_prepared(conn, statement.name, statement.sql, args...).affected_rows();
}

// A batch's keys and tokens as the batch statements bind them: five text[] literals,
// one element per entry in the batch's order; a row's `ord` (1-based) names its entry.
struct BatchKeys {
  BatchKeys(std::span<const ClaimKey> keys, std::span<const ClaimToken> tokens)
      : size(keys.size()) {
    std::vector<std::string> tenant_terms, message_terms, handler_terms, owner_terms, claim_terms;
    for (const ClaimKey& key : keys) {
      tenant_terms.push_back(key.tenant().value());
      message_terms.push_back(key.message_id());
      handler_terms.push_back(key.handler_type());
    }
    for (const ClaimToken& token : tokens) {
      owner_terms.push_back(token.owner);
      claim_terms.push_back(token.claim_id);
    }
    tenants = text_array_literal(tenant_terms);
    message_ids = text_array_literal(message_terms);
    handler_types = text_array_literal(handler_terms);
    owners = text_array_literal(owner_terms);
    claim_ids = text_array_literal(claim_terms);
  }
  // The entry of a row's ord; throws InfrastructureError for one outside the batch.
  std::size_t index(std::int64_t ord) const {
    if (ord < 1 || static_cast<std::size_t>(ord) > size) {
      throw InfrastructureError("PostgreSQL claim inbox: a batch statement answered for entry " +
                                std::to_string(ord) + " of a batch of " + std::to_string(size));
    }
    return static_cast<std::size_t>(ord - 1);
  }

  std::size_t size;
  std::string tenants;
  std::string message_ids;
  std::string handler_types;
  std::string owners;
  std::string claim_ids;
};

class PostgresClaimInboxStore final : public ClaimInboxStore {
 public:
  PostgresClaimInboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, {claim_inbox_schema()}) {}

  std::string_view provider_name() const noexcept override { return "postgres"; }

  StoreCapabilities capabilities() const noexcept override {
    return StoreCapabilities{.joins_handler_writes = false,
                             .interactive_transactions = false,
                             .max_writes_per_commit = 0,
                             .max_bytes_per_commit = 0,
                             .feed = FeedKind::kNone,
                             .server_side_expiry = false,
                             .shared_between_processes = true,
                             .lease_clock = LeaseClock::kStore};
  }

  void migrate() override { database_.migrate(); }

 protected:
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override {
    auto conn = database_.connect();
    return claim(*conn, key, token, lease_now(), lease);  // after the wait for a connection
  }

  // One statement for the whole batch (claim_sql::kTryClaimBatch): one round trip and
  // one commit. An entry it answered no row for is claimed on its own (kTryClaim).
  std::vector<ClaimResult> do_try_claim_batch(std::span<const ClaimKey> keys,
                                              std::span<const ClaimToken> tokens,
                                              std::chrono::microseconds lease) override {
    auto conn = database_.connect();
    const std::optional<std::int64_t> now = lease_now();
    const BatchKeys batch(keys, tokens);
    const Result result = exec_prepared(
        *conn, claim_sql::kTryClaimBatch.name, claim_sql::kTryClaimBatch.sql, batch.tenants,
        batch.message_ids, batch.handler_types, batch.owners, batch.claim_ids, now, lease.count());
    std::vector<std::optional<ClaimResult>> answered(keys.size());
    for (int row = 0; row < result.rows(); ++row) {
      answered.at(batch.index(result.int64(row, 0))) = claim_result_at(result, row, 1);
    }
    std::vector<ClaimResult> results;
    results.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      results.push_back(answered[i] ? *answered[i] : claim(*conn, keys[i], tokens[i], now, lease));
    }
    return results;
  }

  std::vector<bool> do_mark_processed_batch(std::span<const ClaimKey> keys,
                                            std::span<const ClaimToken> tokens) override {
    auto conn = database_.connect();
    const BatchKeys batch(keys, tokens);
    const Result result =
        exec_prepared(*conn, claim_sql::kMarkProcessedBatch.name,
                      claim_sql::kMarkProcessedBatch.sql, batch.tenants, batch.message_ids,
                      batch.handler_types, batch.owners, batch.claim_ids, lease_now());
    std::vector<bool> marked(keys.size(), false);
    for (int row = 0; row < result.rows(); ++row) {
      marked.at(batch.index(result.int64(row, 0))) = true;
    }
    return marked;
  }

  bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) override {
    return change_held(claim_sql::kMarkProcessed, key, token);
  }

  bool do_release(const ClaimKey& key, const ClaimToken& token) override {
    return change_held(claim_sql::kRelease, key, token);
  }

  bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                      const ClaimFailure& failure) override {
    return change_held(claim_sql::kMarkFailed, key, token, failure.error,
                       kit::to_micros(failure.next_attempt_at));
  }

  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override {
    auto conn = database_.connect();
    const Result renewed =
        run(*conn, claim_sql::kRenew, tenant(key), key.message_id(), key.handler_type(),
            token.owner, token.claim_id, lease_now(), lease.count());
    if (renewed.rows() == 0) {
      return std::nullopt;
    }
    return kit::from_micros(renewed.int64(0, 0));
  }

  bool do_try_mark_processed(const ClaimKey& key) override {
    auto conn = database_.connect();
    return change(*conn, claim_sql::kTryMarkProcessed, tenant(key), key.message_id(),
                  key.handler_type(), lease_now()) == 1;
  }

  // On the clock failed_due compares with (now_micros()), not the lease clock.
  bool do_retry_now(const ClaimKey& key) override {
    auto conn = database_.connect();
    return change(*conn, claim_sql::kRetryNow, tenant(key), key.message_id(), key.handler_type(),
                  now_micros()) == 1;
  }

  std::optional<ClaimEntry> do_find(const ClaimKey& key) override {
    auto conn = database_.connect();
    auto found = claim_entries(
        run(*conn, claim_sql::kFind, tenant(key), key.message_id(), key.handler_type()));
    if (found.empty()) {
      return std::nullopt;
    }
    return std::move(found.front());
  }

  std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) override {
    auto conn = database_.connect();
    return claim_entries(run(*conn, claim_sql::kFailedDue, now_micros(), max_retries, limit));
  }

  ClaimCounts do_counts(const std::optional<TenantId>& tenant) override {
    auto conn = database_.connect();
    return claim_counts(tenant ? run(*conn, claim_sql::kTenantCounts, now_micros(), tenant->value())
                               : run(*conn, claim_sql::kCounts, now_micros()));
  }

  ClaimPage do_entries(const ClaimPageRequest& request) override {
    // Every stored term is non-blank, so ('', '', '') is before the first key.
    std::string_view after_tenant, after_message, after_handler;
    if (request.after) {
      after_tenant = request.after->tenant().value();
      after_message = request.after->message_id();
      after_handler = request.after->handler_type();
    }
    std::optional<std::string_view> status;
    if (request.status) {
      status = to_string(*request.status);
    }
    const std::size_t read = request.limit + 1;  // one more tells whether a page follows
    auto conn = database_.connect();
    ClaimPage page;
    page.entries = claim_entries(request.tenant ? run(*conn, claim_sql::kTenantEntries,
                                                      after_tenant, after_message, after_handler,
                                                      status, read, request.tenant->value())
                                                : run(*conn, claim_sql::kEntries, after_tenant,
                                                      after_message, after_handler, status, read));
    if (page.entries.size() > request.limit) {
      page.entries.pop_back();
      page.next = page.entries.back().key;
    }
    return page;
  }

  std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                               std::size_t limit) override {
    auto conn = database_.connect();
    const std::int64_t deleted =
        tenant != nullptr ? change(*conn, claim_sql::kTenantCleanup, kit::to_micros(cutoff), limit,
                                   tenant->value())
                          : change(*conn, claim_sql::kCleanup, kit::to_micros(cutoff), limit);
    return static_cast<std::size_t>(deleted);
  }

  std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                   Timestamp cutoff) override {
    auto conn = database_.connect();
    const Result counted = tenant ? run(*conn, claim_sql::kTenantCountCleanable,
                                        kit::to_micros(cutoff), tenant->value())
                                  : run(*conn, claim_sql::kCountCleanable, kit::to_micros(cutoff));
    return static_cast<std::uint64_t>(counted.int64(0, 0));
  }

 private:
  static const std::string& tenant(const ClaimKey& key) { return key.tenant().value(); }

  // The store's clock's time, for what it compares with callers' times (failed_due,
  // counts): next_attempt_at is the caller's.
  std::int64_t now_micros() const { return kit::to_micros(database_.clock().now()); }

  // The time leases are taken and compared at, and claims and marks stamped with, bound
  // as the statements' `now` (claim_sql.h's DOCKET_CLAIM_CLOCK): NULL, so that the
  // statement reads the server's clock, unless the store's clock is simulated (a test
  // moving time by hand), whose time it is then. Issue 37: on its own clock, a process
  // whose clock runs ahead would take over another's live lease early; on the server's,
  // every claimer compares leases on one clock (LeaseClock::kStore).
  std::optional<std::int64_t> lease_now() const {
    const Clock& clock = database_.clock();
    return clock.simulated() ? std::optional(kit::to_micros(clock.now())) : std::nullopt;
  }

  // mark_processed, release, mark_failed: the key, the token and lease_now(), then
  // `extra`; whether the token's claim was current (and so changed).
  template <Bindable... Extra>
  bool change_held(const claim_sql::Statement& statement, const ClaimKey& key,
                   const ClaimToken& token, const Extra&... extra) {
    auto conn = database_.connect();
    return change(*conn, statement, tenant(key), key.message_id(), key.handler_type(), token.owner,
                  token.claim_id, lease_now(), extra...) == 1;
  }

  // kTryClaim until it returns its row.
  static ClaimResult claim(Connection& conn, const ClaimKey& key, const ClaimToken& token,
                           std::optional<std::int64_t> now, std::chrono::microseconds lease) {
    for (int attempt = 0; attempt < kClaimRuns; ++attempt) {
      const auto claimed =
          claim_result(run(conn, claim_sql::kTryClaim, tenant(key), key.message_id(),
                           key.handler_type(), token.owner, token.claim_id, now, lease.count()));
      if (claimed) {
        return *claimed;
      }
    }
    throw InfrastructureError(
        "PostgreSQL claim inbox on " + conn.description() + ": try_claim of message '" +
        key.message_id() + "' for handler '" + key.handler_type() + "' found the entry " +
        std::to_string(kClaimRuns) +
        " times changed under it by other writers (deleted and written again); retry later");
  }

  Database database_;
};

}  // namespace

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresClaimInboxStore>(options, clock);
}

}  // namespace docket::postgres
