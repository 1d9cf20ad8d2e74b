// The DynamoDB claim inbox's requests on DynamoDB Local: a claim of a new message is one
// PutItem; a refused claim answers from the entry the refusal returned, with no read; a
// claimable entry (failed, released, or its lease over) costs the put and the UpdateItem
// that takes it over, keeping its retry count; and the put and the update write the same
// item for a new entry. What every claim inbox does is the claim conformance suite's;
// this counts what DynamoDB is sent for it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
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
  EXPECT_EQ(entry->received_at, clock_.now());
}

TEST_F(DynamoDbClaimStoreTest, ARefusedClaimAnswersFromTheRefusalWithOneRequest) {
  ASSERT_EQ(store_.try_claim(key_, "w1", seconds(30)).outcome, ClaimOutcome::kClaimed);
  std::uint64_t requests = 0;
  const ClaimResult held = claim_counting(key_, "w2", requests);
  EXPECT_EQ(held.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(held.lease_until, clock_.now() + seconds(30));
  EXPECT_EQ(requests, 1u);

  ASSERT_TRUE(store_.mark_processed(key_, "w1"));
  const ClaimResult processed = claim_counting(key_, "w2", requests);
  EXPECT_EQ(processed.outcome, ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(requests, 1u);
}

TEST_F(DynamoDbClaimStoreTest, AClaimableEntryIsTakenOverByASecondRequestKeepingItsRetries) {
  ASSERT_EQ(store_.try_claim(key_, "w1", seconds(30)).outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_.mark_failed(key_, "w1", {.error = "boom", .next_attempt_at = clock_.now()}));
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
  EXPECT_FALSE(store_.mark_processed(key_, "w2"));
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
  client_.call({.operation = "PutItem", .table = table, .replay = Replay::kUnsafe},
               claim::create_claimed_request({.table = table, .id = put_id.value}, put_key, "w",
                                             now, now + seconds(30)));
  client_.call({.operation = "UpdateItem", .table = table, .replay = Replay::kUnsafe},
               claim::try_claim_request({.table = table, .id = update_id.value}, update_key, "w",
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
}

}  // namespace
}  // namespace docket::dynamodb::detail
