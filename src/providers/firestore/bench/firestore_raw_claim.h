// The raw limit of the claim inbox on Firestore: what docket's claim runner and
// Firestore claim inbox store do for a message, sent directly through the provider's
// client.
//
// The requests are the store's own (firestore_claim_inbox_store.h), in the same shape
// and number: a commit of the claimed new document under exists: false; refused, a
// batchGet of the entry and a commit of the claimed document under the precondition
// that it is unchanged since. Then, when it claimed, the handler's effect (one commit,
// claim_effect_firestore.h) and a commit marking it processed under the update_time of
// the claim's own write (refused, a batchGet and a commit under the read's). A batch
// (--batch) sends its creates as one batchWrite and its marks as another, each entry
// refused then going the one-entry way, as the store's batches do. The
// document is written by claim::claim_fields() and the transition by
// kit/claim_transition.h, as the store's; the entry id is composed by src/keys, and
// each claim carries a fresh UUIDv7 claim id that its mark presents, as the store's
// front end makes one. "now" is read from the system clock per request, as docket's
// store does.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_CLAIM_FIRESTORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_CLAIM_FIRESTORE_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "claim_session.h"
#include "docket/inbox/claim_inbox_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"

namespace docket::bench {

class RawClaimFirestore final : public ClaimSession {
 public:
  // `url`: a Firestore store URL whose prefix is the raw side's.
  RawClaimFirestore(const std::string& url, std::string_view handler_type, std::string_view owner);

  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;
  void cycle_batch(std::span<const std::string_view> message_ids, ClaimEffectWriter* effect,
                   ClaimCycleCounts& counts) override;

 private:
  // The entry as read (nullopt: absent) and the precondition to write it back under.
  struct Read {
    std::optional<ClaimEntry> entry;
    firestore::detail::Precondition precondition;
  };
  Read read(const std::string& id) const;
  // The update_time of the write, or nullopt when the precondition did not hold.
  std::optional<std::string> write(const std::string& id, const ClaimEntry& entry,
                                   const firestore::detail::Precondition& precondition) const;
  // A fresh token of this session's owner, one per claim.
  ClaimToken new_token() const;
  // The claim of an entry whose create was refused: read, claimed under `token` where
  // claimable (`entry` becomes the claimed one); the claim's update time, or nullopt.
  std::optional<std::string> claim_existing(const ClaimKey& key, const std::string& id,
                                            const ClaimToken& token, ClaimEntry& entry) const;
  // The mark of an entry whose remembered claim was refused: read, marked where still
  // `token`'s.
  bool mark_read(const std::string& id, const ClaimToken& token) const;

  firestore::detail::Client client_;
  std::string collection_;
  std::string handler_type_;
  std::string owner_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_CLAIM_FIRESTORE_H_
