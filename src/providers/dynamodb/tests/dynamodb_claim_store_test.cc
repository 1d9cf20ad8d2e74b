// The DynamoDB claim inbox's requests on DynamoDB Local: a claim of a new message is one
// PutItem; a refused claim answers from the entry the refusal returned, with no read; a
// claimable entry (failed, released, or its lease over) costs the put and the UpdateItem
// that takes it over, keeping its retry count; and the put and the update write the same
// item for a new entry. A claim's token fences it: a stale claim id of the same owner
// changes nothing, a renewal is one conditional request, and an entry written before
// claim ids existed reads back without one and is claimed as any. What every claim
// inbox does is the claim conformance suite's; this counts what DynamoDB is sent for
// it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/tests/dynamodb_fixture.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/key_bridge.h"

namespace docket::dynamodb::detail {
namespace {

using std::chrono::seconds;

class DynamoDbClaimStoreTest : public DynamoDbTest {
 protected:
  DynamoDbClaimStoreTest() : store_(url_.text, clock_) {
    made_.push_back(claim::claim_table_schema(url_).name);
    store_.migrate();
  }

  // The requests `claim` sends, and its result.
  ClaimResult claim_counting(const ClaimKey& key, std::string_view owner, std::uint64_t& requests) {
    const std::uint64_t before = kit::http::docket_requests().load();
    ClaimResult result = store_.try_claim(key, owner, seconds(30));
    requests = kit::http::docket_requests().load() - before;
    return result;
  }

  ManualClock clock_{Timestamp(seconds(1'800'000'000))};
  DynamoDbClaimInboxStore store_;
  const ClaimKey key_{TenantId("acme"), "m-1", "billing.Invoice"};
};

TEST_F(DynamoDbClaimStoreTest, ANewMessageIsClaimedWithOneRequest) {
  std::uint64_t requests = 0;
  const ClaimResult claimed = claim_counting(key_, "w1", requests);
  EXPECT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claimed.retry_count, 0u);
  EXPECT_EQ(claimed.lease_until, clock_.now() + seconds(30));
  EXPECT_EQ(requests, 1u);

  const std::optional<ClaimEntry> entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry->owner, "w1");
  EXPECT_EQ(entry->claim_id, claimed.token.claim_id);
  EXPECT_FALSE(claimed.token.claim_id.empty());
  EXPECT_EQ(entry->received_at, clock_.now());
}

TEST_F(DynamoDbClaimStoreTest, ARefusedClaimAnswersFromTheRefusalWithOneRequest) {
  const ClaimResult first = store_.try_claim(key_, "w1", seconds(30));
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  std::uint64_t requests = 0;
  const ClaimResult held = claim_counting(key_, "w2", requests);
  EXPECT_EQ(held.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(held.lease_until, clock_.now() + seconds(30));
  EXPECT_EQ(requests, 1u);

  ASSERT_TRUE(store_.mark_processed(key_, first.token));
  const ClaimResult processed = claim_counting(key_, "w2", requests);
  EXPECT_EQ(processed.outcome, ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(requests, 1u);
}

TEST_F(DynamoDbClaimStoreTest, AClaimableEntryIsTakenOverByASecondRequestKeepingItsRetries) {
  const ClaimResult first = store_.try_claim(key_, "w1", seconds(30));
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(
      store_.mark_failed(key_, first.token, {.error = "boom", .next_attempt_at = clock_.now()}));
  std::uint64_t requests = 0;
  const ClaimResult retried = claim_counting(key_, "w2", requests);
  EXPECT_EQ(retried.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(retried.retry_count, 1u);
  EXPECT_EQ(requests, 2u);

  // Its lease over, the entry is taken over the same way, by another owner.
  clock_.advance(seconds(31));
  const ClaimResult taken = claim_counting(key_, "w3", requests);
  EXPECT_EQ(taken.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(taken.retry_count, 1u);
  EXPECT_EQ(requests, 2u);
  const std::optional<ClaimEntry> entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->owner, "w3");
  EXPECT_EQ(entry->received_at, clock_.now() - seconds(31));
  EXPECT_FALSE(store_.mark_processed(key_, retried.token));
}

// The put that claims a new entry and the update that would create it write the same
// item: the two requests state the claimed entry twice, and must not drift apart.
TEST_F(DynamoDbClaimStoreTest, APutClaimAndAnUpdateClaimOfANewEntryWriteTheSameItem) {
  const std::string table = claim::claim_table_schema(url_).name;
  const ClaimKey put_key(TenantId("acme"), "by-put", "billing.Invoice");
  const ClaimKey update_key(TenantId("acme"), "by-update", "billing.Invoice");
  const keys::Key put_id = kit::inbox_entry_id(keys::Provider::kDynamoDb, put_key);
  const keys::Key update_id = kit::inbox_entry_id(keys::Provider::kDynamoDb, update_key);
  const Timestamp now = clock_.now();
  const ClaimToken token{.owner = "w", .claim_id = "c-1"};
  client_.call({.operation = "PutItem", .table = table, .replay = Replay::kUnsafe},
               claim::create_claimed_request({.table = table, .id = put_id.value}, put_key, token,
                                             now, now + seconds(30)));
  client_.call({.operation = "UpdateItem", .table = table, .replay = Replay::kUnsafe},
               claim::try_claim_request({.table = table, .id = update_id.value}, update_key, token,
                                        now, now + seconds(30)));
  const auto stored = [&](const keys::Key& id) {
    nlohmann::json item =
        client_
            .call({.operation = "GetItem", .table = table, .replay = Replay::kSafe},
                  claim::get_request({.table = table, .id = id.value}))
            .body()
            .at("Item");
    // What differs by design: the key and what the key decides.
    for (const std::string_view own : {claim::kId, claim::kMessageId, claim::kShard}) {
      item.erase(std::string(own));
    }
    return item;
  };
  const nlohmann::json by_put = stored(put_id);
  EXPECT_EQ(by_put, stored(update_id));
  EXPECT_TRUE(by_put.contains(std::string(claim::kLeaseUntil))) << by_put.dump();
  EXPECT_EQ(by_put.at(std::string(claim::kClaimId)), string_value("c-1")) << by_put.dump();
}

// The same owner claims the entry again after its first claim's lease ran out (a second
// thread of one runner): the first claim's token, its owner the same, changes nothing
// on any path, and the current claim's does.
TEST_F(DynamoDbClaimStoreTest, AStaleClaimIdOfTheSameOwnerChangesNothing) {
  const ClaimResult first = store_.try_claim(key_, "w1", seconds(30));
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  clock_.advance(seconds(31));
  const ClaimResult second = store_.try_claim(key_, "w1", seconds(30));
  ASSERT_EQ(second.outcome, ClaimOutcome::kClaimed);
  ASSERT_EQ(second.token.owner, first.token.owner);
  ASSERT_NE(second.token.claim_id, first.token.claim_id);
  const std::optional<ClaimEntry> held = store_.find(key_);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->owner, "w1");
  EXPECT_EQ(held->claim_id, second.token.claim_id);

  clock_.advance(seconds(1));
  EXPECT_FALSE(store_.mark_processed(key_, first.token));
  EXPECT_FALSE(store_.release(key_, first.token));
  EXPECT_FALSE(
      store_.mark_failed(key_, first.token, {.error = "late", .next_attempt_at = clock_.now()}));
  EXPECT_EQ(store_.renew(key_, first.token, seconds(60)), std::nullopt);
  EXPECT_EQ(store_.mark_processed_batch(std::span(&key_, 1), std::span(&first.token, 1)),
            std::vector<bool>{false});
  EXPECT_EQ(store_.find(key_), held);

  // The current claim renews (one request) and ends; the end clears its token.
  std::uint64_t before = kit::http::docket_requests().load();
  EXPECT_EQ(store_.renew(key_, second.token, seconds(60)), clock_.now() + seconds(60));
  EXPECT_EQ(kit::http::docket_requests().load() - before, 1u);
  std::optional<ClaimEntry> entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->lease_until, clock_.now() + seconds(60));
  EXPECT_EQ(entry->updated_at, clock_.now());
  EXPECT_EQ(entry->claim_id, second.token.claim_id);
  EXPECT_TRUE(store_.mark_processed(key_, second.token));
  entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry->owner, std::nullopt);
  EXPECT_EQ(entry->claim_id, std::nullopt);
  EXPECT_EQ(store_.renew(key_, second.token, seconds(60)), std::nullopt);
}

// A lease that ran out with nobody claiming since is still the token's to renew.
TEST_F(DynamoDbClaimStoreTest, ALapsedLeaseNobodyClaimedIsRenewed) {
  const ClaimResult claimed = store_.try_claim(key_, "w1", seconds(30));
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  clock_.advance(seconds(45));
  EXPECT_EQ(store_.renew(key_, claimed.token, seconds(30)), clock_.now() + seconds(30));
  EXPECT_EQ(store_.try_claim(key_, "w2", seconds(30)).outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_TRUE(store_.release(key_, claimed.token));
  const std::optional<ClaimEntry> entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kReceived);
  EXPECT_EQ(entry->claim_id, std::nullopt);
}

// An entry claimed before claim ids existed has no claim_id attribute: it reads back
// without one, no token ends it, and once its lease is over it is claimed as any entry
// is, under a claim id of its own.
TEST_F(DynamoDbClaimStoreTest, AnEntryClaimedBeforeClaimIdsReadsBackAndIsClaimedOnceItsLeaseEnds) {
  const std::string table = claim::claim_table_schema(url_).name;
  const keys::Key id = kit::inbox_entry_id(keys::Provider::kDynamoDb, key_);
  nlohmann::json old = claim::create_claimed_request({.table = table, .id = id.value}, key_,
                                                     {.owner = "w0", .claim_id = "unused"},
                                                     clock_.now(), clock_.now() + seconds(30));
  old["Item"].erase(std::string(claim::kClaimId));
  client_.call({.operation = "PutItem", .table = table, .replay = Replay::kUnsafe}, old);

  std::optional<ClaimEntry> entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry->owner, "w0");
  EXPECT_EQ(entry->claim_id, std::nullopt);
  EXPECT_FALSE(store_.mark_processed(key_, {.owner = "w0", .claim_id = "unused"}));
  EXPECT_EQ(store_.try_claim(key_, "w1", seconds(30)).outcome, ClaimOutcome::kHeldByAnother);

  clock_.advance(seconds(30));
  const ClaimResult claimed = store_.try_claim(key_, "w1", seconds(30));
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  entry = store_.find(key_);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->owner, "w1");
  EXPECT_EQ(entry->claim_id, claimed.token.claim_id);
  EXPECT_TRUE(store_.mark_processed(key_, claimed.token));
}

}  // namespace
}  // namespace docket::dynamodb::detail
