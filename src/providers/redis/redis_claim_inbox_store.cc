// The Redis ClaimInboxStore (redis_claim_inbox_store.h).
#include "providers/redis/redis_claim_inbox_store.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "providers/kit/claim_row.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_claim_reads.h"
#include "providers/redis/redis_claim_scripts.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_script.h"

namespace docket::redis::detail {
namespace {

constexpr std::string_view kClaimStoreName = "Redis claim inbox";

std::string micros_text(std::chrono::microseconds d) {
  return std::to_string(d.count());
}

class RedisClaimInboxStore final : public ClaimInboxStore {
 public:
  RedisClaimInboxStore(std::string_view url, const Clock& clock)
      : pool_(parse_url(url)),
        clock_(clock),
        entry_script_("the claim inbox entry script", claim_entry_script()),
        cleanup_script_("the claim inbox cleanup script", claim_cleanup_script()),
        reads_(pool_) {}

  std::string_view provider_name() const noexcept override { return "redis"; }
  StoreCapabilities capabilities() const noexcept override {
    return {.joins_handler_writes = false,
            .interactive_transactions = false,
            .max_writes_per_commit = 0,
            .max_bytes_per_commit = 0,
            .max_bytes_per_record = 0,
            .feed = FeedKind::kNone,
            .server_side_expiry = false,
            .shared_between_processes = true,
            .concurrent_writers = false,
            .lease_clock = LeaseClock::kStore};
  }
  // Redis has no schema: keys are made by the writes that need them.
  void migrate() override {}

 protected:
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override {
    return claim_result(entry_script_.run(pool_, claim_argv(key, token, lease), Replay::kUnsafe));
  }
  // The batches: one script run per entry, each on its own terms, pipelined in one
  // round trip.
  std::vector<ClaimResult> do_try_claim_batch(std::span<const ClaimKey> keys,
                                              std::span<const ClaimToken> tokens,
                                              std::chrono::microseconds lease) override {
    std::vector<std::vector<std::string>> runs;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      runs.push_back(claim_argv(keys[i], tokens[i], lease));
    }
    std::vector<ClaimResult> results;
    for (const Reply& reply : entry_script_.run_all(pool_, runs, Replay::kUnsafe)) {
      results.push_back(claim_result(reply));
    }
    return results;
  }
  std::vector<bool> do_mark_processed_batch(std::span<const ClaimKey> keys,
                                            std::span<const ClaimToken> tokens) override {
    std::vector<std::vector<std::string>> runs;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      runs.push_back(argv(keys[i], "processed", {tokens[i].owner, tokens[i].claim_id}));
    }
    std::vector<bool> marked;
    for (const Reply& reply : entry_script_.run_all(pool_, runs, Replay::kUnsafe)) {
      marked.push_back(reply.integer() == 1);
    }
    return marked;
  }
  ClaimResult claim_result(const Reply& reply) const {
    const long long outcome = reply.integer_at(0);
    ClaimResult result{.outcome = outcome == 0   ? ClaimOutcome::kClaimed
                                  : outcome == 1 ? ClaimOutcome::kAlreadyProcessed
                                                 : ClaimOutcome::kHeldByAnother,
                       .retry_count = kit::claim_retry_count(
                           std::stoll(reply.string_at(1).value_or("0")), kClaimStoreName),
                       .lease_until = std::nullopt,
                       .token = {}};
    if (const auto lease_until = reply.string_at(2)) {
      result.lease_until = kit::from_micros(std::stoll(*lease_until));
    }
    return result;
  }
  bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) override {
    return run(key, "processed", {token.owner, token.claim_id}).integer() == 1;
  }
  bool do_release(const ClaimKey& key, const ClaimToken& token) override {
    return run(key, "release", {token.owner, token.claim_id}).integer() == 1;
  }
  bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                      const ClaimFailure& failure) override {
    return run(key, "failed",
               {token.owner, token.claim_id, failure.error,
                std::to_string(kit::to_micros(failure.next_attempt_at))})
               .integer() == 1;
  }
  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override {
    const auto lease_until =
        run(key, "renew", {token.owner, token.claim_id, micros_text(lease)}).string();
    return lease_until ? std::optional(kit::from_micros(std::stoll(*lease_until))) : std::nullopt;
  }
  bool do_try_mark_processed(const ClaimKey& key) override {
    return run(key, "first", {key.tenant().value(), key.message_id(), key.handler_type()})
               .integer() == 1;
  }
  bool do_retry_now(const ClaimKey& key) override { return run(key, "retry", {}).integer() == 1; }
  std::optional<ClaimEntry> do_find(const ClaimKey& key) override {
    return reads_.find(claim_entry_id(key));
  }
  std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) override {
    return reads_.failed_due(now(), max_retries, limit);
  }
  ClaimCounts do_counts(const std::optional<TenantId>& tenant) override {
    return reads_.counts(tenant, now());
  }
  ClaimPage do_entries(const ClaimPageRequest& request) override { return reads_.entries(request); }
  std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                               std::size_t limit) override {
    const RedisUrl& url = pool_.url();
    const Reply reply = cleanup_script_.run(
        pool_,
        {url.key(kClaimProcessed), url.key(kClaimKeys), url.key(kClaimFailed), url.prefix,
         std::to_string(kit::to_micros(cutoff)), std::to_string(limit),
         tenant == nullptr ? std::string() : tenant->value()},
        Replay::kUnsafe);
    return static_cast<std::size_t>(reply.integer());
  }
  std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                   Timestamp cutoff) override {
    return reads_.count_cleanable(tenant, kit::to_micros(cutoff));
  }

 private:
  // The time the scripts use: the simulated clock's, or "" for the server's TIME.
  std::string script_now() const {
    return clock_.simulated() ? std::to_string(kit::to_micros(clock_.now())) : std::string();
  }
  // The store's now for the reads: the simulated clock's, or the server's TIME.
  std::int64_t now() {
    if (clock_.simulated()) {
      return kit::to_micros(clock_.now());
    }
    const Reply time = pool_.run({"TIME"}, Replay::kSafe);
    return std::stoll(*time.ok().string_at(0)) * 1'000'000 + std::stoll(*time.string_at(1));
  }
  // One run of the entry script on `key` (see redis_claim_scripts.h). Changes of an
  // entry are sent once: a lost connection may have applied them.
  Reply run(const ClaimKey& key, std::string_view op, std::vector<std::string> args) {
    return entry_script_.run(pool_, argv(key, op, std::move(args)), Replay::kUnsafe);
  }
  std::vector<std::string> claim_argv(const ClaimKey& key, const ClaimToken& token,
                                      std::chrono::microseconds lease) const {
    return argv(key, "claim",
                {key.tenant().value(), key.message_id(), key.handler_type(), token.owner,
                 token.claim_id, micros_text(lease)});
  }
  // The entry script's arguments for `op` on `key` (redis_claim_scripts.h).
  std::vector<std::string> argv(const ClaimKey& key, std::string_view op,
                                std::vector<std::string> args) const {
    const RedisUrl& url = pool_.url();
    std::string id = claim_entry_id(key);
    std::vector<std::string> out = {
        std::string(op),          claim_entry_key(url, id), id,          url.key(kClaimKeys),
        url.key(kClaimProcessed), url.key(kClaimFailed),    script_now()};
    for (std::string& arg : args) {
      out.push_back(std::move(arg));
    }
    return out;
  }

  Pool pool_;
  const Clock& clock_;
  Script entry_script_;
  Script cleanup_script_;
  ClaimReads reads_;
};

}  // namespace

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisClaimInboxStore>(url, clock);
}

}  // namespace docket::redis::detail
