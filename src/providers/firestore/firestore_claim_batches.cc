// The claim inbox's batches (firestore_claim_inbox_store.h). A batch's claims are ONE
// batchWrite of every entry created claimed under exists: false, each with its own
// claim's token; its marks ONE batchWrite of every entry this store remembers claiming
// under the token presented for it (held_), each under the update time of its claim.
// A batchWrite applies each write on its own, so one entry's refusal holds back no
// other's, and answers each: an entry refused, or not remembered under its token (a
// stale token among them), goes the one-entry way (claim_existing,
// do_mark_processed), which reads it first. A batch of new messages is one request to
// claim and one to mark, where one at a time it is one per message each.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_claim_inbox_store.h"
#include "providers/kit/claim_transition.h"

namespace docket::firestore::detail {

std::vector<ClaimResult> FirestoreClaimInboxStore::do_try_claim_batch(
    std::span<const ClaimKey> keys, std::span<const ClaimToken> tokens,
    std::chrono::microseconds lease) {
  const Timestamp now = clock_.now();
  std::vector<ClaimEntry> created;
  std::vector<ClaimResult> results;
  std::vector<Write> writes;
  created.reserve(keys.size());
  results.reserve(keys.size());
  writes.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ClaimEntry& entry = created.emplace_back(kit::new_claim_entry(keys[i], now));
    results.push_back(kit::claim(entry, tokens[i], now, lease));
    writes.push_back({.collection = collection_,
                      .id = entry_id(keys[i]),
                      .fields = claim::claim_fields(entry),
                      .precondition = {.exists = false}});
  }
  std::vector<std::optional<std::string>> update_times = write_each(client_, writes, store_);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (update_times[i]) {
      held_.remember(writes[i].id,
                     {.entry = std::move(created[i]), .update_time = std::move(*update_times[i])});
    } else {
      results[i] = claim_existing(keys[i], writes[i].id, tokens[i], lease);
    }
  }
  return results;
}

std::vector<bool> FirestoreClaimInboxStore::do_mark_processed_batch(
    std::span<const ClaimKey> keys, std::span<const ClaimToken> tokens) {
  const Timestamp now = clock_.now();
  std::vector<bool> marked(keys.size(), false);
  std::vector<Write> writes;
  std::vector<std::size_t> written;  // the batch's index of each write
  std::vector<std::size_t> unknown;  // entries this store remembers no claim of the token of
  for (std::size_t i = 0; i < keys.size(); ++i) {
    std::string id = entry_id(keys[i]);
    std::optional<WrittenEntry> known = held_.take(id, tokens[i]);
    if (!known) {
      unknown.push_back(i);
      continue;
    }
    kit::mark_processed(known->entry, now);
    writes.push_back({.collection = collection_,
                      .id = std::move(id),
                      .fields = claim::claim_fields(known->entry),
                      .precondition = {.update_time = std::move(known->update_time)}});
    written.push_back(i);
  }
  if (!writes.empty()) {
    const std::vector<std::optional<std::string>> update_times =
        write_each(client_, writes, store_);
    for (std::size_t w = 0; w < writes.size(); ++w) {
      if (update_times[w]) {
        marked[written[w]] = true;
      } else {
        unknown.push_back(written[w]);  // changed since the claim: read, then decide
      }
    }
  }
  for (const std::size_t i : unknown) {
    marked[i] = do_mark_processed(keys[i], tokens[i]);
  }
  return marked;
}

}  // namespace docket::firestore::detail
