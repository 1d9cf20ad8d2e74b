// The DynamoDB ClaimInboxStore: one item per entry in the table of
// dynamodb_claim_table.h, every state change one conditional write
// (dynamodb_claim_requests.h), so each is atomic on the server and concurrent claimers
// of one entry, threads or processes, get exactly one winner. A claim is one PutItem
// where the entry is new, and an UpdateItem only where an existing entry is claimable.
//
// The administration reads go to the table's sparse indexes where they can (failed
// entries due, processed entries older than a cutoff) and Scan the table, page by
// page, where nothing narrower exists (counts by status, pages of entries); see
// docs/dynamodb-stores.md. Index reads are eventually consistent: an entry changed a moment
// ago may not be in them yet.
//
// The table is made sure of on first use (or migrate()): created when missing.
//
// Leases are on the claimer's clock (LeaseClock::kClaimer): DynamoDB has no clock a
// condition can read, so each claim and each comparison is at the `now` of the Clock
// the store was opened with.
//
// Thread-safety: every member may be called from many threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_INBOX_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_INBOX_STORE_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/keys/key.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_once.h"

namespace docket::dynamodb::detail {

class DynamoDbClaimInboxStore final : public ClaimInboxStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
  // credentials; sends nothing.
  DynamoDbClaimInboxStore(std::string_view url, const Clock& clock);

  std::string_view provider_name() const noexcept override { return "dynamodb"; }
  StoreCapabilities capabilities() const noexcept override;
  void migrate() override;

 protected:
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override;
  bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) override;
  bool do_release(const ClaimKey& key, const ClaimToken& token) override;
  bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                      const ClaimFailure& failure) override;
  // One conditional UpdateItem of lease_until, under the token's claim.
  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override;
  bool do_try_mark_processed(const ClaimKey& key) override;
  // One UpdateItem conditional on status failed, at the clock failed_due compares with.
  bool do_retry_now(const ClaimKey& key) override;
  // dynamodb_claim_batches.cc
  std::vector<ClaimResult> do_try_claim_batch(std::span<const ClaimKey> keys,
                                              std::span<const ClaimToken> tokens,
                                              std::chrono::microseconds lease) override;
  std::vector<bool> do_mark_processed_batch(std::span<const ClaimKey> keys,
                                            std::span<const ClaimToken> tokens) override;
  std::optional<ClaimEntry> do_find(const ClaimKey& key) override;
  // dynamodb_claim_admin.cc
  std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) override;
  ClaimCounts do_counts(const std::optional<TenantId>& tenant) override;
  ClaimPage do_entries(const ClaimPageRequest& request) override;
  // dynamodb_claim_cleanup.cc
  std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                               std::size_t limit) override;
  std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                   Timestamp cutoff) override;

 private:
  // The entry's id (src/keys), checked against DynamoDB's key limits.
  keys::Key entry_id(const ClaimKey& key) const;
  std::vector<keys::Key> entry_ids(std::span<const ClaimKey> keys) const;
  // The client, once the table is there.
  const Client& ready();
  // One conditional UpdateItem or DeleteItem: true when applied, false when its
  // condition did not hold.
  bool conditional_write(std::string_view operation, const nlohmann::json& request);
  // The UpdateItem that takes over an existing entry (id: entry_id(key)) found
  // claimable at `now`.
  ClaimResult take_over(const ClaimKey& key, const keys::Key& id, const ClaimToken& token,
                        Timestamp now, Timestamp lease_until);
  // The entry a refused claim returned (ALL_OLD: the error's or the cancellation
  // reason's item); throws InfrastructureError when the server returned none.
  ClaimEntry refusing_entry(const nlohmann::json& holder, const ClaimKey& key) const;
  // What a refused claim answers: already processed, or held by another until when.
  static ClaimResult refusal(const ClaimEntry& entry);
  // The requests of the cleanup's index reads: every processed entry before `cutoff`
  // of `tenant` (one query) or of every tenant (one per shard).
  std::vector<nlohmann::json> processed_queries(const TenantId* tenant, Timestamp cutoff) const;

  Client client_;
  TableOnce table_;
  const Clock& clock_;
  std::string store_;  // "DynamoDB claim inbox (table 'app_docket_claim_inbox')", for errors
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_INBOX_STORE_H_
