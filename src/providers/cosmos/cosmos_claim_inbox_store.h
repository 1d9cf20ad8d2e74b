// The Cosmos DB ClaimInboxStore: one item per entry (cosmos_claim_item.h), each its own
// logical partition, every state change a point read of the entry and a replace of the
// whole changed item under If-Match with the etag it was read with (a create for an entry
// not there yet, refused with 409 when another writer made it first). Of concurrent
// writers of one entry, threads or processes, exactly one write applies; the others are
// refused with nothing written (412, 409), read the entry again and decide anew (a
// claimer then finds it held). A claim writes its token (owner and claim id) on the
// entry; a mark, release, failure or renewal changes the entry only where the entry as
// read holds the same token, so a stale claim of the same owner changes nothing.
//
// Leases are on the claimer's clock (LeaseClock::kClaimer): every time written and
// compared is the `now` of the Clock the store was opened with, as on Firestore (the
// service's _ts is whole seconds, and no condition can compare a lease with it).
//
// A claim first creates the claimed entry, so a message seen for the first time, most
// claims, is one request; refused, the entry is read and claimed as any change is. The
// store remembers the entry each claim wrote and the etag its write returned
// (cosmos_claim_writes.h), so that the claim's mark, release, failure or renewal is one
// replace under that etag with no read before it; refused (412: another writer changed
// the entry since, a lease taken over say; 404: it was deleted), the entry is read and
// the change decided anew as for a claim the store does not remember. A claim cycle of a
// new message is thus two requests: the create and the mark.
//
// The administration reads are SQL queries over the container, across partitions, on
// the default range index (every field indexed): failed entries due, ordered by
// nextAttemptAt; counts by SELECT VALUE COUNT(1) and MIN(receivedAt); pages in id order;
// processed entries older than a cutoff. Cleanup deletes each query page's entries one
// by one, each under If-Match with the etag the query read, so an entry changed since is
// kept.
//
// The container and its database are created on first use (cosmos_client.h).
//
// Thread-safety: every member may be called from many threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_INBOX_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_INBOX_STORE_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "providers/cosmos/cosmos_claim_writes.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"

namespace docket::cosmos::detail {

class CosmosClaimInboxStore final : public ClaimInboxStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses; sends nothing.
  CosmosClaimInboxStore(std::string_view url, const Clock& clock);

  std::string_view provider_name() const noexcept override { return "cosmos"; }
  StoreCapabilities capabilities() const noexcept override;
  // Creates the database and the container where they are missing.
  void migrate() override;

 protected:
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override;
  bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) override;
  bool do_release(const ClaimKey& key, const ClaimToken& token) override;
  bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                      const ClaimFailure& failure) override;
  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override;
  bool do_try_mark_processed(const ClaimKey& key) override;
  bool do_retry_now(const ClaimKey& key) override;
  std::optional<ClaimEntry> do_find(const ClaimKey& key) override;
  // cosmos_claim_admin.cc
  std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) override;
  ClaimCounts do_counts(const std::optional<TenantId>& tenant) override;
  ClaimPage do_entries(const ClaimPageRequest& request) override;
  std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                               std::size_t limit) override;
  std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                   Timestamp cutoff) override;

 private:
  // Given the entry as read (nullopt: absent) and the time, changes it in place (creating
  // it when absent) and returns true to write it, or false to write nothing.
  using Change = std::function<bool(std::optional<ClaimEntry>& entry, Timestamp now)>;

  // The entry's item id (src/keys: refuses one over 1,023 bytes, naming the term).
  std::string entry_id(const ClaimKey& key) const;
  ItemAddress address(const std::string& id) const {
    return {.container = container_, .id = id, .partition_key = id};
  }
  // Applies `change` to entry `id` and writes the result under the condition that the
  // entry is unchanged since it was read, starting over from a new read whenever it
  // changed in between. The etag of the write, or nullopt when `change` declined.
  std::optional<std::string> change_entry(const std::string& id, const Change& change);
  // Whether the claim ends with the change (a mark, release or failure) or goes on (a
  // renewal: the change's write is remembered for the claim's next one).
  enum class ClaimGoesOn : bool { kNo, kYes };
  // `change` applied to entry `id` where `token`'s claim is its current one: straight
  // onto the entry the claim's last write left when remembered, else from a read.
  std::optional<ClaimEntry> change_held(const std::string& id, const ClaimToken& token,
                                        const std::function<void(ClaimEntry&, Timestamp)>& change,
                                        ClaimGoesOn goes_on);
  // The entries of a query's items.
  std::vector<ClaimEntry> entries_of(const std::vector<nlohmann::json>& items) const;

  Client client_;
  const Clock& clock_;
  std::string container_;
  std::string store_;   // "Cosmos DB claim inbox (container 'docket_claim_inbox' at ...)"
  ClaimWrites writes_;  // what the claims held through this store wrote last
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_INBOX_STORE_H_
