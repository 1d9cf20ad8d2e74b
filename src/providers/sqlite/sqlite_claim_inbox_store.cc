// The SQLite ClaimInboxStore: table docket_claim_inbox, beside the provider's other
// stores in one database file. Every operation is one statement in a transaction of
// its own (try_claim: at most two, under BEGIN IMMEDIATE; a batch: its entries' under
// one BEGIN IMMEDIATE, one durable commit), so each is atomic and
// SQLite's write lock serialises the writers, across threads and processes alike.
// The statements are those of sqlite_claim_inbox_sql.h. A claim writes its token
// (owner and claim id); marks, releases and renewals change the entry only for the
// token of its current claim. Times are the machine's (LeaseClock::kStore; now()).
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/sqlite/claim_inbox_store.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_claim_inbox_rows.h"
#include "providers/sqlite/sqlite_claim_inbox_schema.h"
#include "providers/sqlite/sqlite_claim_inbox_sql.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_immediate_transaction.h"
#include "providers/sqlite/sqlite_options.h"

namespace docket::sqlite {
namespace {

using detail::ParamView;
using detail::RowView;
using kit::from_micros;
using kit::to_micros;
namespace claim_sql = detail::claim_sql;

// Sorts before every key term (none is empty). Not a default string_view: SQLite
// binds a null pointer as NULL, which compares as nothing.
constexpr std::string_view kBeforeEveryTerm = "";

class SqliteClaimInboxStore final : public ClaimInboxStore {
 public:
  SqliteClaimInboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, detail::migrate_claim_inbox_schema),
        // The claim inbox never joins a handler's writes; a file is shared by every
        // process that opens it, ":memory:" by none.
        capabilities_{.joins_handler_writes = false,
                      .interactive_transactions = false,
                      .max_writes_per_commit = 0,
                      .max_bytes_per_commit = 0,
                      .feed = FeedKind::kNone,
                      .server_side_expiry = false,
                      .shared_between_processes = options.path != ":memory:",
                      .lease_clock = LeaseClock::kStore} {}

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  StoreCapabilities capabilities() const noexcept override { return capabilities_; }
  void migrate() override { database_.migrate(); }

 protected:
  // The upsert claims whatever is claimable; only when it returned nothing does a read
  // in the same transaction (under the write lock, so nothing changed in between) say
  // whether the entry is processed or whose lease holds it.
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override {
    auto connection = database_.connect();
    detail::ImmediateTransaction transaction(*connection);
    // Read after the lock is ours: a lease that ran out while we waited is claimable.
    ClaimResult result = claim(*connection, key, token, now(), lease);
    transaction.commit();
    return result;
  }

  // A batch is one transaction, so one durable commit, whatever its size.
  std::vector<ClaimResult> do_try_claim_batch(std::span<const ClaimKey> keys,
                                              std::span<const ClaimToken> tokens,
                                              std::chrono::microseconds lease) override {
    auto connection = database_.connect();
    detail::ImmediateTransaction transaction(*connection);
    const Timestamp at = now();
    std::vector<ClaimResult> results;
    results.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      results.push_back(claim(*connection, keys[i], tokens[i], at, lease));
    }
    transaction.commit();
    return results;
  }

  std::vector<bool> do_mark_processed_batch(std::span<const ClaimKey> keys,
                                            std::span<const ClaimToken> tokens) override {
    auto connection = database_.connect();
    detail::ImmediateTransaction transaction(*connection);
    const Timestamp at = now();
    std::vector<bool> marked;
    marked.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      marked.push_back(
          held_update(*connection, claim_sql::kMarkProcessed, keys[i], tokens[i], at) == 1);
    }
    transaction.commit();
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
                       to_micros(failure.next_attempt_at));
  }

  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override {
    const Timestamp at = now();
    const std::array<ParamView, 7> params{
        key.tenant().value(), key.message_id(), key.handler_type(),   token.owner,
        token.claim_id,       to_micros(at),    to_micros(at + lease)};
    std::optional<Timestamp> renewed;
    database_.connect()->for_each_row(claim_sql::kRenew, params, [&](const RowView& row) {
      renewed = from_micros(row.int64(0));
    });
    return renewed;
  }

  bool do_try_mark_processed(const ClaimKey& key) override {
    const std::array<ParamView, 4> params{key.tenant().value(), key.message_id(),
                                          key.handler_type(), to_micros(now())};
    return database_.connect()->exec_views(claim_sql::kTryMarkProcessed, params) == 1;
  }

  bool do_retry_now(const ClaimKey& key) override {
    const std::array<ParamView, 4> params{key.tenant().value(), key.message_id(),
                                          key.handler_type(), to_micros(now())};
    return database_.connect()->exec_views(claim_sql::kRetryNow, params) == 1;
  }

  std::optional<ClaimEntry> do_find(const ClaimKey& key) override {
    const std::array<ParamView, 3> params{key.tenant().value(), key.message_id(),
                                          key.handler_type()};
    auto found = detail::claim_entries(*database_.connect(), claim_sql::kFind, params, 1);
    if (found.empty()) {
      return std::nullopt;
    }
    return std::move(found.front());
  }

  std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) override {
    const std::array<ParamView, 3> params{to_micros(now()), std::int64_t{max_retries},
                                          static_cast<std::int64_t>(limit)};
    return detail::claim_entries(*database_.connect(), claim_sql::kFailedDue, params, limit);
  }

  ClaimCounts do_counts(const std::optional<TenantId>& tenant) override;
  ClaimPage do_entries(const ClaimPageRequest& request) override;

  std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                               std::size_t limit) override {
    const std::int64_t rows = static_cast<std::int64_t>(limit);
    auto connection = database_.connect();
    if (tenant == nullptr) {
      const std::array<ParamView, 2> params{to_micros(cutoff), rows};
      return static_cast<std::size_t>(connection->exec_views(claim_sql::kCleanup, params));
    }
    const std::array<ParamView, 3> params{to_micros(cutoff), rows, tenant->value()};
    return static_cast<std::size_t>(connection->exec_views(claim_sql::kTenantCleanup, params));
  }

  std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                   Timestamp cutoff) override {
    const std::array<ParamView, 2> params{to_micros(cutoff),
                                          tenant ? ParamView(tenant->value()) : nullptr};
    std::uint64_t count = 0;
    database_.connect()->for_each_row(
        tenant ? claim_sql::kTenantCountCleanable : claim_sql::kCountCleanable,
        std::span(params).first(tenant ? 2 : 1),
        [&](const RowView& row) { count = static_cast<std::uint64_t>(row.int64(0)); });
    return count;
  }

 private:
  // Every time the store writes or compares (leases, marks, due failures) is on the
  // machine's clock, which every process sharing the file reads, unless the store's
  // clock is simulated (a test moving time by hand): a process whose own clock is
  // skewed (an OffsetClock) then cannot take over a live lease early (issue 37), and
  // the store's LeaseClock is kStore.
  Timestamp now() const { return kit::machine_now(database_.clock()); }

  // One UPDATE of the entry held by `token` (status processing, ?4 owner, ?5 claim
  // id), with ?6 now and then `extra`: the rows it changed (1 iff the claim was current).
  template <typename... Extra>
  static std::int64_t held_update(detail::Connection& connection, std::string_view sql,
                                  const ClaimKey& key, const ClaimToken& token, Timestamp at,
                                  const Extra&... extra) {
    const std::array<ParamView, 6 + sizeof...(Extra)> params{
        key.tenant().value(), key.message_id(), key.handler_type(), token.owner,
        token.claim_id,       to_micros(at),    ParamView(extra)...};
    return connection.exec_views(sql, params);
  }
  // The same in autocommit at now(): whether the token's claim was current.
  template <typename... Extra>
  bool change_held(std::string_view sql, const ClaimKey& key, const ClaimToken& token,
                   const Extra&... extra) {
    return held_update(*database_.connect(), sql, key, token, now(), extra...) == 1;
  }

  // One entry's claim inside the caller's BEGIN IMMEDIATE. The upsert claims whatever is
  // claimable; only when it returned nothing does a read under the same write lock (so
  // nothing changed in between) say whether the entry is processed or whose lease holds
  // it.
  static ClaimResult claim(detail::Connection& connection, const ClaimKey& key,
                           const ClaimToken& token, Timestamp at, std::chrono::microseconds lease) {
    const std::array<ParamView, 7> params{
        key.tenant().value(), key.message_id(), key.handler_type(),   token.owner,
        token.claim_id,       to_micros(at),    to_micros(at + lease)};
    std::optional<ClaimResult> result;
    connection.for_each_row(claim_sql::kTryClaim, params, [&](const RowView& row) {
      result =
          ClaimResult{.outcome = ClaimOutcome::kClaimed,
                      .retry_count = kit::claim_retry_count(row.int64(0), detail::kClaimInboxStore),
                      .lease_until = from_micros(row.int64(1))};
    });
    if (!result) {
      connection.for_each_row(
          claim_sql::kClaimHolder, std::span(params).first(3), [&](const RowView& row) {
            const bool processed = kit::claim_status(row.bytes(0), detail::kClaimInboxStore) ==
                                   ClaimStatus::kProcessed;
            result = ClaimResult{
                .outcome =
                    processed ? ClaimOutcome::kAlreadyProcessed : ClaimOutcome::kHeldByAnother,
                .retry_count = kit::claim_retry_count(row.int64(1), detail::kClaimInboxStore),
                .lease_until = processed ? std::nullopt : std::optional(from_micros(row.int64(2)))};
          });
    }
    if (!result) {
      throw InfrastructureError("SQLite claim inbox on '" + connection.path() +
                                "': the claim upsert neither wrote nor found the entry of "
                                "message '" +
                                key.message_id() + "'; nothing was claimed");
    }
    return *result;
  }

  detail::Database database_;
  const StoreCapabilities capabilities_;
};

ClaimCounts SqliteClaimInboxStore::do_counts(const std::optional<TenantId>& tenant) {
  const std::array<ParamView, 2> params{to_micros(now()),
                                        tenant ? ParamView(tenant->value()) : nullptr};
  ClaimCounts counts;
  const auto count_at = [](const RowView& row, int column) {
    return static_cast<std::uint64_t>(row.int64(column));
  };
  database_.connect()->for_each_row(tenant ? claim_sql::kTenantCounts : claim_sql::kCounts,
                                    std::span(params).first(tenant ? 2 : 1),
                                    [&](const RowView& row) {
                                      counts.received = count_at(row, 0);
                                      counts.processing = count_at(row, 1);
                                      counts.processed = count_at(row, 2);
                                      counts.failed = count_at(row, 3);
                                      if (!row.is_null(4)) {
                                        counts.oldest_pending = from_micros(row.int64(4));
                                      }
                                      counts.failed_due = count_at(row, 5);
                                    });
  return counts;
}

// Reads one row more than the page holds: it tells whether another page follows.
ClaimPage SqliteClaimInboxStore::do_entries(const ClaimPageRequest& request) {
  const ParamView status =
      request.status ? ParamView(to_string(*request.status)) : ParamView(nullptr);
  const auto rows = static_cast<std::int64_t>(request.limit + 1);
  const ClaimKey* after = request.after ? &*request.after : nullptr;
  std::vector<ClaimEntry> entries;
  if (request.tenant) {
    const TenantId& tenant = *request.tenant;
    if (after != nullptr && after->tenant() > tenant) {
      return {};  // `after` is past every entry of the tenant
    }
    const bool within = after != nullptr && after->tenant() == tenant;
    const std::array<ParamView, 5> params{
        tenant.value(), within ? std::string_view(after->message_id()) : kBeforeEveryTerm,
        within ? std::string_view(after->handler_type()) : kBeforeEveryTerm, status, rows};
    entries = detail::claim_entries(*database_.connect(), claim_sql::kTenantEntries, params,
                                    request.limit + 1);
  } else {
    const std::array<ParamView, 5> params{
        after != nullptr ? std::string_view(after->tenant().value()) : kBeforeEveryTerm,
        after != nullptr ? std::string_view(after->message_id()) : kBeforeEveryTerm,
        after != nullptr ? std::string_view(after->handler_type()) : kBeforeEveryTerm, status,
        rows};
    entries =
        detail::claim_entries(*database_.connect(), claim_sql::kEntries, params, request.limit + 1);
  }
  ClaimPage page;
  if (entries.size() > request.limit) {
    entries.pop_back();
    page.next = entries.back().key;
  }
  page.entries = std::move(entries);
  return page;
}

}  // namespace

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteClaimInboxStore>(
      detail::checked_options(std::move(options), "SQLite claim inbox store"), clock);
}

}  // namespace docket::sqlite
