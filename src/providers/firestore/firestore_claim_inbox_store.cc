// The claim inbox's state changes and its one-entry read
// (firestore_claim_inbox_store.h).
#include "providers/firestore/firestore_claim_inbox_store.h"

#include <utility>

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/key_bridge.h"

namespace docket::firestore::detail {
namespace {

// Each refused commit means another writer changed the entry in between; a writer
// refused this often in a row is starved by a hot entry, and says so rather than spin.
constexpr int kMaxEntryRaces = 1000;

}  // namespace

FirestoreClaimInboxStore::FirestoreClaimInboxStore(std::string_view url, const Clock& clock)
    : client_(parse_store_url(url)),
      clock_(clock),
      collection_(client_.url().collection(claim::kCollection)),
      store_("Firestore claim inbox (collection '" + collection_ + "' at " + client_.url().text +
             ")") {}

StoreCapabilities FirestoreClaimInboxStore::capabilities() const noexcept {
  // Never joins a handler's writes; every process that names the collection shares it.
  // The cleanup's batches are query pages deleted in commits of at most 500 each, so no
  // commit limit bounds a batch.
  //
  // Leases are on the claimer's clock: Firestore stamps a write's update time on its
  // own clock, but no precondition or query can compare a lease with that clock's now,
  // so every claimer stamps and compares leases with its own. A claimer whose clock
  // runs S ahead takes over a lease S early, so a lease must exceed the worst skew
  // between claimers plus the handler's run (issue 37).
  return {.joins_handler_writes = false,
          .interactive_transactions = false,
          .max_writes_per_commit = 0,
          .max_bytes_per_commit = 0,
          .max_bytes_per_record = kMaxDocumentBytes,
          .feed = FeedKind::kNone,
          .server_side_expiry = false,
          .shared_between_processes = true,
          .lease_clock = LeaseClock::kClaimer};
}

std::string FirestoreClaimInboxStore::entry_id(const ClaimKey& key) const {
  std::string id = kit::inbox_entry_id(keys::Provider::kFirestore, key).value;
  check_document_id(collection_, id);
  return id;
}

std::optional<std::string> FirestoreClaimInboxStore::write_entry(const std::string& id,
                                                                 const ClaimEntry& entry,
                                                                 const Precondition& precondition) {
  const Write write{.collection = collection_,
                    .id = id,
                    .fields = claim::claim_fields(entry),
                    .precondition = precondition};
  CommitResult result = commit(client_, std::span<const Write>(&write, 1), store_);
  if (!result.applied) {
    return std::nullopt;
  }
  return std::move(result.update_times.at(0));
}

std::optional<std::string> FirestoreClaimInboxStore::change_entry(
    const std::string& id, const Change& change, std::optional<WrittenEntry> known) {
  if (known) {
    std::optional<ClaimEntry> entry(std::move(known->entry));
    if (change(entry, clock_.now())) {
      if (auto written = write_entry(id, *entry, {.update_time = std::move(known->update_time)})) {
        return written;
      }
    }
  }
  for (int race = 0; race < kMaxEntryRaces; ++race) {
    const std::optional<Document> document = get_document(client_, collection_, id);
    std::optional<ClaimEntry> entry;
    if (document) {
      entry = claim::claim_entry_of(*document, store_);
    }
    if (!change(entry, clock_.now())) {
      return std::nullopt;
    }
    if (auto written = write_entry(id, *entry,
                                   document ? Precondition{.update_time = document->update_time}
                                            : Precondition{.exists = false})) {
      return written;
    }
  }
  throw InfrastructureError(store_ + ": entry '" + id + "' changed under each of " +
                            std::to_string(kMaxEntryRaces) + " attempts to change it; retry later");
}

ClaimResult FirestoreClaimInboxStore::do_try_claim(const ClaimKey& key, const ClaimToken& token,
                                                   std::chrono::microseconds lease) {
  const std::string id = entry_id(key);
  // A message seen for the first time, most claims, is one commit of the claimed entry
  // under exists: false, with no read. Refused, the entry exists: it is read and claimed
  // as any change is.
  const Timestamp created_at = clock_.now();
  ClaimEntry created = kit::new_claim_entry(key, created_at);
  const ClaimResult claimed = kit::claim(created, token, created_at, lease);
  if (auto update_time = write_entry(id, created, {.exists = false})) {
    held_.remember(id, {.entry = std::move(created), .update_time = std::move(*update_time)});
    return claimed;
  }
  return claim_existing(key, id, token, lease);
}

ClaimResult FirestoreClaimInboxStore::claim_existing(const ClaimKey& key, const std::string& id,
                                                     const ClaimToken& token,
                                                     std::chrono::microseconds lease) {
  ClaimResult result;
  std::optional<ClaimEntry> taken;
  const std::optional<std::string> update_time =
      change_entry(id, [&](std::optional<ClaimEntry>& entry, Timestamp now) {
        if (!entry) {
          entry = kit::new_claim_entry(key, now);
        }
        result = kit::claim(*entry, token, now, lease);
        if (result.outcome != ClaimOutcome::kClaimed) {
          return false;
        }
        taken = *entry;
        return true;
      });
  if (update_time) {
    held_.remember(id, {.entry = std::move(*taken), .update_time = *update_time});
  }
  return result;
}

std::optional<WrittenEntry> FirestoreClaimInboxStore::change_held(
    const std::string& id, const ClaimToken& token,
    const std::function<void(ClaimEntry&, Timestamp)>& change) {
  std::optional<ClaimEntry> changed;
  std::optional<std::string> update_time = change_entry(
      id,
      [&](std::optional<ClaimEntry>& entry, Timestamp now) {
        if (!entry || !kit::held_by(*entry, token)) {
          return false;
        }
        change(*entry, now);
        changed = *entry;
        return true;
      },
      held_.take(id, token));
  if (!update_time) {
    return std::nullopt;
  }
  return WrittenEntry{.entry = std::move(*changed), .update_time = std::move(*update_time)};
}

bool FirestoreClaimInboxStore::do_mark_processed(const ClaimKey& key, const ClaimToken& token) {
  return change_held(entry_id(key), token,
                     [](ClaimEntry& entry, Timestamp now) { kit::mark_processed(entry, now); })
      .has_value();
}

bool FirestoreClaimInboxStore::do_release(const ClaimKey& key, const ClaimToken& token) {
  return change_held(entry_id(key), token,
                     [](ClaimEntry& entry, Timestamp now) { kit::release(entry, now); })
      .has_value();
}

bool FirestoreClaimInboxStore::do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                                              const ClaimFailure& failure) {
  return change_held(
             entry_id(key), token,
             [&](ClaimEntry& entry, Timestamp now) { kit::mark_failed(entry, failure, now); })
      .has_value();
}

std::optional<Timestamp> FirestoreClaimInboxStore::do_renew(const ClaimKey& key,
                                                            const ClaimToken& token,
                                                            std::chrono::microseconds lease) {
  const std::string id = entry_id(key);
  std::optional<WrittenEntry> renewed = change_held(
      id, token, [&](ClaimEntry& entry, Timestamp now) { kit::renew(entry, now, lease); });
  if (!renewed) {
    return std::nullopt;
  }
  const Timestamp lease_until = renewed->entry.lease_until.value();
  // The claim goes on: its end (or next renewal) starts from this write.
  held_.remember(id, std::move(*renewed));
  return lease_until;
}

bool FirestoreClaimInboxStore::do_try_mark_processed(const ClaimKey& key) {
  return change_entry(entry_id(key),
                      [&](std::optional<ClaimEntry>& entry, Timestamp now) {
                        if (!entry) {
                          entry = kit::new_claim_entry(key, now);
                        } else if (entry->status == ClaimStatus::kProcessed) {
                          return false;
                        }
                        kit::mark_processed(*entry, now);
                        return true;
                      })
      .has_value();
}

bool FirestoreClaimInboxStore::do_retry_now(const ClaimKey& key) {
  return change_entry(entry_id(key),
                      [](std::optional<ClaimEntry>& entry, Timestamp now) {
                        return entry && kit::retry_now(*entry, now);
                      })
      .has_value();
}

std::optional<ClaimEntry> FirestoreClaimInboxStore::do_find(const ClaimKey& key) {
  const std::optional<Document> document = get_document(client_, collection_, entry_id(key));
  if (!document) {
    return std::nullopt;
  }
  return claim::claim_entry_of(*document, store_);
}

}  // namespace docket::firestore::detail
