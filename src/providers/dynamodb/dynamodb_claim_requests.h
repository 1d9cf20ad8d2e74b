// Every request the claim inbox sends about one entry, as DynamoDB JSON: the store sends
// exactly these, and so can a benchmark that measures the store against DynamoDB driven
// directly with the same requests. The table's layout is dynamodb_claim_table.h's.
//
// Each state change is ONE conditional write, so DynamoDB applies it atomically against
// the entry's current state and serialises concurrent writers of one entry:
//   create_claimed     PutItem of a new entry, claimed, only where no entry exists: the
//                      claim of a message seen for the first time, which is most claims.
//                      On a refusal DynamoDB returns the entry that exists (ALL_OLD).
//   try_claim          UpdateItem that creates the entry, or takes it over while it is
//                      received, failed, or processing with its lease ended
//                      (lease_until <= now); retry_count and received_at are kept
//                      (if_not_exists). On a refusal DynamoDB returns the entry as it
//                      was (ReturnValuesOnConditionCheckFailure ALL_OLD): processed, or
//                      whose lease holds, without a second read.
//   mark_processed, release, mark_failed, renew
//                      only while status = processing and owner and claim_id are the
//                      caller's token's (the claim it was given, not a later claim of
//                      the same owner); the ends REMOVE owner and claim_id, renew sets
//                      lease_until alone
//   try_mark_processed unless it is processed already (first writer wins)
//   retry_now          only while failed: next_attempt_at and failed_due_at (the sparse
//                      index's key) set to now, retry_count and last_error kept
//   delete_processed   only while processed before the cutoff: cleanup never deletes an
//                      entry whose state changed since the index read that found it
// None but renew is safe to send twice (Replay::kUnsafe): a repeat would meet its own
// first attempt's change and report it as another writer's. A renewal's own write
// leaves its condition true, and its repeat writes the same (Replay::kSafe).
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_REQUESTS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_REQUESTS_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::dynamodb::detail::claim {

// One entry: its table and its id (kit::inbox_entry_id's value).
struct EntryAddress {
  std::string_view table;
  std::string_view id;
};

// PutItem; on a refusal the existing entry (ALL_OLD). The claim's retry_count is 0.
nlohmann::json create_claimed_request(const EntryAddress& entry, const ClaimKey& key,
                                      const ClaimToken& token, Timestamp now,
                                      Timestamp lease_until);
// UpdateItem; ReturnValues ALL_NEW (retry_count, lease_until of the claim).
nlohmann::json try_claim_request(const EntryAddress& entry, const ClaimKey& key,
                                 const ClaimToken& token, Timestamp now, Timestamp lease_until);
// UpdateItem each.
nlohmann::json mark_processed_request(const EntryAddress& entry, const ClaimToken& token,
                                      Timestamp now);
nlohmann::json release_request(const EntryAddress& entry, const ClaimToken& token, Timestamp now);
nlohmann::json mark_failed_request(const EntryAddress& entry, const ClaimToken& token,
                                   Timestamp now, const ClaimFailure& failure);
nlohmann::json renew_request(const EntryAddress& entry, const ClaimToken& token, Timestamp now,
                             Timestamp lease_until);
nlohmann::json try_mark_processed_request(const EntryAddress& entry, const ClaimKey& key,
                                          Timestamp now);
nlohmann::json retry_now_request(const EntryAddress& entry, Timestamp now);
// GetItem, strongly consistent.
nlohmann::json get_request(const EntryAddress& entry);
// DeleteItem.
nlohmann::json delete_processed_request(const EntryAddress& entry, Timestamp cutoff);

}  // namespace docket::dynamodb::detail::claim

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_REQUESTS_H_
