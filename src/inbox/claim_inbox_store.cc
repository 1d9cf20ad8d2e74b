// The claim inbox's front end: every argument is checked here, once for every
// provider, before a provider sees it; nothing is written for a refused argument.
#include "docket/inbox/claim_inbox_store.h"

#include <algorithm>
#include <array>
#include <string>

#include "core/delete_in_batches.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "inbox/text_checks.h"

namespace docket {
namespace {

constexpr std::array<std::string_view, 4> kStatusNames = {"received", "processing", "processed",
                                                          "failed"};
// Where a store states no commit limit, a cleanup request still stays short.
constexpr std::size_t kMaxUnlimitedCleanupBatch = 100'000;

// `what` names the operation and the owner ("try_claim: owner"): a literal, so that the
// check, on every claim and mark, builds no string unless it fails.
void check_owner(std::string_view what, std::string_view owner) {
  inbox::require_text(what, owner, kMaxClaimOwnerBytes,
                      /*allow_blank=*/false,
                      "pass a token that names this claimer (e.g. a UUID per worker)");
}

// A token as try_claim returned it: an owner that passes check_owner and a claim id.
// `what` and `owner_what` are literals, as for check_owner.
void check_token(std::string_view what, std::string_view owner_what, const ClaimToken& token) {
  check_owner(owner_what, token.owner);
  if (token.claim_id.empty() || token.claim_id.size() > kMaxClaimOwnerBytes) {
    throw InvalidInputError(std::string(what) + ": the token's claim id is " +
                            (token.claim_id.empty() ? "empty" : "over 200 bytes") +
                            "; pass the token try_claim returned");
  }
}

// A fresh token for one claim by `owner`.
ClaimToken new_token(std::string_view owner) {
  return ClaimToken{.owner = std::string(owner), .claim_id = Uuid::v7().to_string()};
}

void check_lease(std::string_view what, std::chrono::microseconds lease) {
  if (lease <= std::chrono::microseconds::zero() || lease > kMaxClaimLease) {
    throw InvalidInputError(std::string(what) + ": lease of " + std::to_string(lease.count()) +
                            " us is outside (0, " + std::to_string(kMaxClaimLease.count()) +
                            " h]; pass a lease that outlasts the handler");
  }
}

// A batch's keys: at most kMaxClaimBatch, none twice (a store may send the batch as one
// transaction, which cannot hold two writes of one entry).
void check_batch(std::string_view what, std::span<const ClaimKey> keys) {
  if (keys.size() > kMaxClaimBatch) {
    throw InvalidInputError(std::string(what) + ": " + std::to_string(keys.size()) +
                            " keys are more than the " + std::to_string(kMaxClaimBatch) +
                            " a batch takes; split the batch");
  }
  std::vector<const ClaimKey*> sorted;
  sorted.reserve(keys.size());
  for (const ClaimKey& key : keys) {
    sorted.push_back(&key);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const ClaimKey* a, const ClaimKey* b) { return *a < *b; });
  const auto twice = std::adjacent_find(
      sorted.begin(), sorted.end(), [](const ClaimKey* a, const ClaimKey* b) { return *a == *b; });
  if (twice != sorted.end()) {
    const ClaimKey& key = **twice;
    throw InvalidInputError(std::string(what) + ": the batch names the entry of message '" +
                            key.message_id() + "' for handler '" + key.handler_type() +
                            "' (tenant '" + key.tenant().value() +
                            "') twice; pass each entry once");
  }
}

std::size_t checked_cleanup_batch(const ClaimInboxStore& store, std::size_t batch_size) {
  const std::size_t limit = store.capabilities().max_writes_per_commit;
  const std::size_t most = limit == 0 ? kMaxUnlimitedCleanupBatch : limit;
  if (batch_size == 0 || batch_size > most) {
    throw InvalidInputError("claim inbox cleanup: batch size " + std::to_string(batch_size) +
                            " is outside 1.." + std::to_string(most) + " for the " +
                            std::string(store.provider_name()) +
                            " claim inbox; pass a batch size in that range");
  }
  return batch_size;
}

}  // namespace

std::string_view to_string(ClaimStatus status) noexcept {
  return kStatusNames.at(static_cast<std::size_t>(status));
}

std::optional<ClaimStatus> parse_claim_status(std::string_view text) noexcept {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == text) {
      return static_cast<ClaimStatus>(i);
    }
  }
  return std::nullopt;
}

std::string_view to_string(ClaimOutcome outcome) noexcept {
  switch (outcome) {
    case ClaimOutcome::kClaimed:
      return "claimed";
    case ClaimOutcome::kAlreadyProcessed:
      return "already_processed";
    case ClaimOutcome::kHeldByAnother:
      return "held_by_another";
  }
  return "unknown";
}

ClaimResult ClaimInboxStore::try_claim(const ClaimKey& key, std::string_view owner,
                                       std::chrono::microseconds lease) {
  check_owner("try_claim: owner", owner);
  check_lease("try_claim", lease);
  ClaimToken token = new_token(owner);
  ClaimResult result = do_try_claim(key, token, lease);
  if (result.outcome == ClaimOutcome::kClaimed) {
    result.token = std::move(token);
  }
  return result;
}

std::vector<ClaimResult> ClaimInboxStore::try_claim_batch(std::span<const ClaimKey> keys,
                                                          std::string_view owner,
                                                          std::chrono::microseconds lease) {
  check_owner("try_claim_batch: owner", owner);
  check_lease("try_claim_batch", lease);
  check_batch("try_claim_batch", keys);
  if (keys.empty()) {
    return {};
  }
  std::vector<ClaimToken> tokens;
  tokens.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    tokens.push_back(new_token(owner));
  }
  std::vector<ClaimResult> results = do_try_claim_batch(keys, tokens, lease);
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].outcome == ClaimOutcome::kClaimed) {
      results[i].token = std::move(tokens[i]);
    }
  }
  return results;
}

std::vector<bool> ClaimInboxStore::mark_processed_batch(std::span<const ClaimKey> keys,
                                                        std::span<const ClaimToken> tokens) {
  if (tokens.size() != keys.size()) {
    throw InvalidInputError("mark_processed_batch: " + std::to_string(keys.size()) + " keys and " +
                            std::to_string(tokens.size()) +
                            " tokens; pass each claimed entry's token at its key's index");
  }
  for (const ClaimToken& token : tokens) {
    check_token("mark_processed_batch", "mark_processed_batch: owner", token);
  }
  check_batch("mark_processed_batch", keys);
  if (keys.empty()) {
    return {};
  }
  return do_mark_processed_batch(keys, tokens);
}

std::vector<ClaimResult> ClaimInboxStore::do_try_claim_batch(std::span<const ClaimKey> keys,
                                                             std::span<const ClaimToken> tokens,
                                                             std::chrono::microseconds lease) {
  std::vector<ClaimResult> results;
  results.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    results.push_back(do_try_claim(keys[i], tokens[i], lease));
  }
  return results;
}

std::vector<bool> ClaimInboxStore::do_mark_processed_batch(std::span<const ClaimKey> keys,
                                                           std::span<const ClaimToken> tokens) {
  std::vector<bool> marked;
  marked.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    marked.push_back(do_mark_processed(keys[i], tokens[i]));
  }
  return marked;
}

bool ClaimInboxStore::mark_processed(const ClaimKey& key, const ClaimToken& token) {
  check_token("mark_processed", "mark_processed: owner", token);
  return do_mark_processed(key, token);
}

bool ClaimInboxStore::release(const ClaimKey& key, const ClaimToken& token) {
  check_token("release", "release: owner", token);
  return do_release(key, token);
}

bool ClaimInboxStore::mark_failed(const ClaimKey& key, const ClaimToken& token,
                                  const ClaimFailure& failure) {
  check_token("mark_failed", "mark_failed: owner", token);
  inbox::require_text("mark_failed: error text", failure.error, kMaxClaimErrorBytes,
                      /*allow_blank=*/true,
                      "pass the handler's error message (shorten a very long one yourself)");
  return do_mark_failed(key, token, failure);
}

std::optional<Timestamp> ClaimInboxStore::renew(const ClaimKey& key, const ClaimToken& token,
                                                std::chrono::microseconds lease) {
  check_token("renew", "renew: owner", token);
  check_lease("renew", lease);
  return do_renew(key, token, lease);
}

bool ClaimInboxStore::try_mark_processed(const ClaimKey& key) {
  return do_try_mark_processed(key);
}

bool ClaimInboxStore::retry_now(const ClaimKey& key) {
  return do_retry_now(key);
}

std::optional<ClaimEntry> ClaimInboxStore::find(const ClaimKey& key) {
  return do_find(key);
}

std::vector<ClaimEntry> ClaimInboxStore::failed_due(std::uint32_t max_retries, std::size_t limit) {
  if (limit == 0 || limit > kMaxClaimPageSize) {
    throw InvalidInputError("failed_due: limit " + std::to_string(limit) + " is outside 1.." +
                            std::to_string(kMaxClaimPageSize) + "; pass a page size in that range");
  }
  if (max_retries == 0) {
    return {};
  }
  return do_failed_due(max_retries, limit);
}

ClaimCounts ClaimInboxStore::counts(const std::optional<TenantId>& tenant) {
  return do_counts(tenant);
}

ClaimPage ClaimInboxStore::entries(const ClaimPageRequest& request) {
  if (request.limit == 0 || request.limit > kMaxClaimPageSize) {
    throw InvalidInputError("claim inbox entries: limit " + std::to_string(request.limit) +
                            " is outside 1.." + std::to_string(kMaxClaimPageSize) +
                            "; pass a page size in that range");
  }
  return do_entries(request);
}

std::uint64_t ClaimInboxStore::cleanup_processed(const TenantId& tenant, Timestamp cutoff,
                                                 std::size_t batch_size,
                                                 const CleanupProgress& progress) {
  return cleanup_in_batches(&tenant, cutoff, batch_size, progress);
}

std::uint64_t ClaimInboxStore::cleanup_all_tenants_processed(Timestamp cutoff,
                                                             std::size_t batch_size,
                                                             const CleanupProgress& progress) {
  return cleanup_in_batches(nullptr, cutoff, batch_size, progress);
}

std::uint64_t ClaimInboxStore::cleanup_in_batches(const TenantId* tenant, Timestamp cutoff,
                                                  std::size_t batch_size,
                                                  const CleanupProgress& progress) {
  const std::size_t limit = checked_cleanup_batch(*this, batch_size);
  return core::delete_in_batches(
      limit, [&] { return do_cleanup_batch(tenant, cutoff, limit); }, progress);
}

std::uint64_t ClaimInboxStore::count_cleanable(const std::optional<TenantId>& tenant,
                                               Timestamp cutoff) {
  return do_count_cleanable(tenant, cutoff);
}

}  // namespace docket
