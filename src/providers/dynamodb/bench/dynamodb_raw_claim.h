// The raw limit of the claim inbox on DynamoDB: what docket's claim runner and DynamoDB
// claim inbox store do for a message, sent directly through the provider's client.
//
// The requests are the store's own (src/providers/dynamodb/dynamodb_claim_requests.h),
// sent in the same shape: one conditional PutItem claiming a new entry (on a refusal the
// returned old item read, and a conditional UpdateItem sent where it is claimable, its
// returned attributes read), then, when it claimed, the
// handler's effect (one PutItem, claim_effect_dynamodb.h) and one conditional UpdateItem
// marking it processed. A batch (--batch) sends its claims, then its marks, as one
// TransactWriteItems each, a cancelled one read by its reasons and sent again without
// the entries refused by their own condition, as the store's batches do
// (dynamodb_claim_batches.cc). The entry id is composed by src/keys, as
// the store's is, and each claim carries a fresh UUIDv7 claim id that its mark
// presents, as the store's front end makes one. "now" is read from the system clock
// per request, as docket's store does.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_CLAIM_DYNAMODB_H_
#define DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_CLAIM_DYNAMODB_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claim_session.h"
#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/claim_key.h"
#include "docket/keys/key.h"
#include "providers/dynamodb/dynamodb_client.h"

namespace docket::bench {

class RawClaimDynamoDb final : public ClaimSession {
 public:
  // `url`: a DynamoDB store URL whose table_prefix is the raw side's (its claim table
  // made already).
  RawClaimDynamoDb(const std::string& url, std::string_view handler_type, std::string_view owner);

  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;
  void cycle_batch(std::span<const std::string_view> message_ids, ClaimEffectWriter* effect,
                   ClaimCycleCounts& counts) override;

 private:
  struct Entry {
    ClaimKey key;
    keys::Key id;
  };
  Entry entry_of(std::string_view message_id) const;
  // A fresh token of this session's owner, one per claim.
  ClaimToken new_token() const;
  // One entry's claim under `token`: the PutItem, and the UpdateItem where the refusing
  // entry is claimable. True when it claimed.
  bool claim(const Entry& entry, const ClaimToken& token, Timestamp now, Timestamp lease_until);
  // The UpdateItem that takes over a claimable entry; true when it claimed.
  bool take_over(const Entry& entry, const ClaimToken& token, Timestamp now, Timestamp lease_until);
  bool mark(const Entry& entry, const ClaimToken& token);

  dynamodb::detail::Client client_;
  std::string table_;
  std::string handler_type_;
  std::string owner_;
  std::uint64_t sink_ = 0;  // what was read, so that reading is not optimised away
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_CLAIM_DYNAMODB_H_
