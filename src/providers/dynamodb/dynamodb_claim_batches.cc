// The claim inbox's batches (dynamodb_claim_inbox_store.h): a batch's claims, or its
// marks, as one TransactWriteItems of the very writes try_claim and mark_processed send
// one by one. A transaction is all or nothing, but an entry's claim must not depend on
// another's: a cancelled transaction is read by its reasons, the entries refused by
// their own condition are settled from the entry each reason returns, and the rest,
// which were not applied, are sent again without them. A batch of new messages is one
// request where one at a time it is one per message.
//
// On the service a transaction's writes cost twice a plain write's capacity units: a
// batch buys fewer requests (each a round trip, and on DynamoDB Local each a pass
// through the server's request handling), not fewer units.
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_claim_transactions.h"
#include "providers/kit/claim_transition.h"

namespace docket::dynamodb {
namespace {

// 0, 1, ..., count - 1: every entry of a batch.
std::vector<std::size_t> every_entry(std::size_t count) {
  std::vector<std::size_t> all(count);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

}  // namespace

std::vector<keys::Key> DynamoDbClaimInboxStore::entry_ids(std::span<const ClaimKey> keys) const {
  std::vector<keys::Key> ids;
  ids.reserve(keys.size());
  for (const ClaimKey& key : keys) {
    ids.push_back(entry_id(key));
  }
  return ids;
}

std::vector<ClaimResult> DynamoDbClaimInboxStore::do_try_claim_batch(
    std::span<const ClaimKey> keys, std::string_view owner, std::chrono::microseconds lease) {
  const std::vector<keys::Key> ids = entry_ids(keys);
  const Timestamp now = clock_.now();
  const ClaimResult claimed = {
      .outcome = ClaimOutcome::kClaimed, .retry_count = 0, .lease_until = now + lease};
  std::vector<ClaimResult> results(keys.size(), claimed);
  std::vector<std::size_t> claimable;
  const std::vector<std::size_t> left = claim::transact_each(
      ready(), table_.name(), every_entry(keys.size()),
      [&](std::size_t i) {
        return nlohmann::json{
            {"Put", claim::create_claimed_request({.table = table_.name(), .id = ids[i].value},
                                                  keys[i], owner, now, now + lease)}};
      },
      [&](std::size_t i, const nlohmann::json& old) {
        const ClaimEntry existing = refusing_entry(old, keys[i]);
        if (kit::claimable(existing, now)) {
          claimable.push_back(i);
        } else {
          results[i] = refusal(existing);
        }
      });
  for (const std::size_t i : left) {
    results[i] = do_try_claim(keys[i], owner, lease);
  }
  for (const std::size_t i : claimable) {
    results[i] = take_over(keys[i], owner, now, now + lease);
  }
  return results;
}

std::vector<bool> DynamoDbClaimInboxStore::do_mark_processed_batch(std::span<const ClaimKey> keys,
                                                                   std::string_view owner) {
  const std::vector<keys::Key> ids = entry_ids(keys);
  const Timestamp now = clock_.now();
  std::vector<bool> marked(keys.size(), true);
  const std::vector<std::size_t> left = claim::transact_each(
      ready(), table_.name(), every_entry(keys.size()),
      [&](std::size_t i) {
        return nlohmann::json{
            {"Update", claim::mark_processed_request({.table = table_.name(), .id = ids[i].value},
                                                     owner, now)}};
      },
      [&](std::size_t i, const nlohmann::json&) { marked[i] = false; });
  for (const std::size_t i : left) {
    marked[i] = do_mark_processed(keys[i], owner);
  }
  return marked;
}

}  // namespace docket::dynamodb
