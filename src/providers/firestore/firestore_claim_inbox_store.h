// The Firestore ClaimInboxStore: one document per entry (firestore_claim_document.h),
// every state change a read of the entry and a commit of the whole changed document
// under a precondition that it is unchanged since that read: `exists: false` for an
// entry not there yet, its `updateTime` otherwise. Of concurrent writers of one entry,
// threads or processes, exactly one commit applies; the others are refused with
// nothing written, read the entry again and decide anew (a claimer then finds it held).
// The precondition is checked by the server at commit, so no transaction (and no lock
// held between the read and the write) is needed. A claim writes its token (owner and
// claim id) on the entry; a mark, release, failure or renewal changes the entry only
// where the entry as read (or as this store last wrote it, under that write's
// update_time) holds the same token, so a stale claim of the same owner changes nothing.
//
// Leases are on the claimer's clock (LeaseClock::kClaimer): every time written and
// compared is the `now` of the Clock the store was opened with.
//
// Two writes skip the read where they can: a claim first commits the claimed entry
// under `exists: false`, so a message seen for the first time, most claims, is one
// request; and the end or renewal of a claim this store made (mark processed, release,
// mark failed, renew) commits under the update_time of the claim's own latest write
// (firestore_held_claims.h). Either refused, the entry is read and the change goes on
// as above.
//
// The administration reads are queries over the collection (docs/firestore.md names
// the composite indexes they need on the Cloud Firestore service): failed entries due,
// processed entries older than a cutoff, pages in document id order, counts. Cleanup
// deletes each query page's entries in commits of at most 500 deletes, each under the
// precondition that the entry is unchanged since the query read it.
//
// Thread-safety: every member may be called from many threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLAIM_INBOX_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLAIM_INBOX_STORE_H_

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_held_claims.h"
#include "providers/firestore/firestore_query.h"

namespace docket::firestore::detail {

class FirestoreClaimInboxStore final : public ClaimInboxStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or a missing access
  // token; sends nothing.
  FirestoreClaimInboxStore(std::string_view url, const Clock& clock);

  std::string_view provider_name() const noexcept override { return "firestore"; }
  StoreCapabilities capabilities() const noexcept override;
  // Firestore makes a collection with its first document: nothing to create.
  void migrate() override {}

 protected:
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override;
  bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) override;
  bool do_release(const ClaimKey& key, const ClaimToken& token) override;
  bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                      const ClaimFailure& failure) override;
  // As the ends of a claim are, and the renewed claim remembered (held_) for the next.
  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override;
  bool do_try_mark_processed(const ClaimKey& key) override;
  // A read and a commit under its update_time, as every other change of an entry.
  bool do_retry_now(const ClaimKey& key) override;
  // firestore_claim_batches.cc: each ONE batchWrite (not atomic: each entry on its own),
  // the entries it refused then as their one-entry calls.
  std::vector<ClaimResult> do_try_claim_batch(std::span<const ClaimKey> keys,
                                              std::span<const ClaimToken> tokens,
                                              std::chrono::microseconds lease) override;
  std::vector<bool> do_mark_processed_batch(std::span<const ClaimKey> keys,
                                            std::span<const ClaimToken> tokens) override;
  std::optional<ClaimEntry> do_find(const ClaimKey& key) override;
  // firestore_claim_admin.cc
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

  // The entry's document id (src/keys), checked against Firestore's id rules.
  std::string entry_id(const ClaimKey& key) const;
  // Commits `entry` as document `id` under `precondition`: the update_time of the
  // write, or nullopt when the precondition did not hold (nothing written).
  std::optional<std::string> write_entry(const std::string& id, const ClaimEntry& entry,
                                         const Precondition& precondition);
  // Applies `change` to entry `id` and commits the result under the precondition that
  // the entry is unchanged since it was read, starting over from a new read whenever it
  // changed in between. With `known`, this store's own latest write of the entry, it
  // first tries that without a read; a commit from it refused, or `change` declining
  // it, sends it to a read (a remembered entry may be stale: only a read can tell that
  // nothing is to be written). The update_time of the write, or nullopt when `change`
  // declined.
  std::optional<std::string> change_entry(const std::string& id, const Change& change,
                                          std::optional<WrittenEntry> known = std::nullopt);
  // The claim of an entry whose create was refused: read, then claimed as any change
  // is, and remembered (held_).
  ClaimResult claim_existing(const ClaimKey& key, const std::string& id, const ClaimToken& token,
                             std::chrono::microseconds lease);
  // mark_processed, release, mark_failed and renew: `change` applied to entry `id`
  // where `token`'s claim is its current one, starting from the write of that claim
  // this store remembers (held_) where it has it. The entry as written, or nullopt when
  // the claim is not current (nothing written).
  std::optional<WrittenEntry> change_held(
      const std::string& id, const ClaimToken& token,
      const std::function<void(ClaimEntry&, Timestamp)>& change);
  // The query for processed entries before `cutoff` (of `tenant` when given).
  Query processed_before(const TenantId* tenant, Timestamp cutoff) const;

  Client client_;
  const Clock& clock_;
  std::string collection_;
  std::string store_;  // "Firestore claim inbox (collection 'app_docket_claim_inbox' at ...)"
  HeldClaims held_;
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLAIM_INBOX_STORE_H_
