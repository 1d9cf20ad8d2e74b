// The claim inbox's batches (dynamodb_claim_inbox_store.h): a batch's claims, or its
// marks, as one TransactWriteItems of the very writes try_claim and mark_processed send
// one by one (apply_where_conditions_hold, dynamodb_conditional_writes.h). A
// transaction is all or nothing, but an entry's claim must not depend on another's: a
// cancelled transaction is read by its reasons, the entries refused by their own
// condition are settled from the entry each reason returns (a claimable one then taken
// over by try_claim's UpdateItem), and the rest, which were not applied, are sent again
// without them. A batch of new messages is one request where one at a time it is one
// per message. Each entry carries its own claim's token: a claim writes it, a mark is
// conditional on it, so a stale token refuses that entry's mark alone.
//
// On the service a transaction's writes cost twice a plain write's capacity units: a
// batch buys fewer requests (each a round trip, and on DynamoDB Local each a pass
// through the server's request handling), not fewer units.
#include <string>
#include <utility>
#include <vector>

#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/kit/claim_transition.h"

namespace docket::dynamodb::detail {

std::vector<keys::Key> DynamoDbClaimInboxStore::entry_ids(std::span<const ClaimKey> keys) const {
  std::vector<keys::Key> ids;
  ids.reserve(keys.size());
  for (const ClaimKey& key : keys) {
    ids.push_back(entry_id(key));
  }
  return ids;
}

std::vector<ClaimResult> DynamoDbClaimInboxStore::do_try_claim_batch(
    std::span<const ClaimKey> keys, std::span<const ClaimToken> tokens,
    std::chrono::microseconds lease) {
  const std::vector<keys::Key> ids = entry_ids(keys);
  const Timestamp now = clock_.now();
  std::vector<nlohmann::json> puts;
  puts.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    puts.push_back(
        {{"Put", claim::create_claimed_request({.table = table_.name(), .id = ids[i].value},
                                               keys[i], tokens[i], now, now + lease)}});
  }
  std::vector<ClaimResult> results(
      keys.size(),
      {.outcome = ClaimOutcome::kClaimed, .retry_count = 0, .lease_until = now + lease});
  std::vector<std::size_t> claimable;
  apply_where_conditions_hold(ready(), table_.name(), store_, puts,
                              [&](std::size_t i, const nlohmann::json& old) {
                                const ClaimEntry existing = refusing_entry(old, keys[i]);
                                if (kit::claimable(existing, now)) {
                                  claimable.push_back(i);
                                } else {
                                  results[i] = refusal(existing);
                                }
                              });
  for (const std::size_t i : claimable) {
    results[i] = take_over(keys[i], ids[i], tokens[i], now, now + lease);
  }
  return results;
}

std::vector<bool> DynamoDbClaimInboxStore::do_mark_processed_batch(
    std::span<const ClaimKey> keys, std::span<const ClaimToken> tokens) {
  const std::vector<keys::Key> ids = entry_ids(keys);
  const Timestamp now = clock_.now();
  std::vector<nlohmann::json> marks;
  marks.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    marks.push_back(
        {{"Update", claim::mark_processed_request({.table = table_.name(), .id = ids[i].value},
                                                  tokens[i], now)}});
  }
  return apply_where_conditions_hold(ready(), table_.name(), store_, marks);
}

}  // namespace docket::dynamodb::detail
