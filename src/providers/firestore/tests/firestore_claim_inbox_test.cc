// The Firestore claim inbox beyond the conformance suite: the ids of
// inbox-document-ids.txt as documents (a message id with '/', the untenanted sentinel
// with a handler type ending in "__", the specification's 665-byte worked example),
// messageId and handlerType on every write path, a refusal naming the document for an
// entry docket did not write, the requests a claim sends, a claim's token fencing every
// change (a stale claim id of the same owner changes nothing, alone or in a batch), and
// an entry written before claim ids existed read back and claimed as any.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/stores/open_store.h"
#include "firestore_fixture.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/key_bridge.h"

namespace docket::firestore::detail {
namespace firestore_claim_inbox_test {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

constexpr std::chrono::seconds kLease{30};

// The worked example: a GUID tenant, a GUID message id and an assembly-qualified
// Dictionary<string, List<string>>, 665 bytes once composed (671 with "inbox:").
constexpr std::string_view kNestedGenericHandler =
    "System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib, "
    "Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e],[System.Collections."
    "Generic.List`1[[System.String, System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, "
    "PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, Version=10.0.0.0, "
    "Culture=neutral, PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, "
    "Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e";

class FirestoreClaimInboxTest : public FirestoreTest {
 protected:
  FirestoreClaimInboxTest()
      : clock_(Timestamp(std::chrono::seconds(1'800'000'000))),
        store_(open_claim_inbox_store(collections_.url(), clock_)) {}

  // The one document of the claim collection.
  Document only_document() {
    const std::vector<Document> all =
        run_query(client_, {.collection = collection(claim::kCollection)});
    EXPECT_EQ(all.size(), 1u);
    return all.empty() ? Document{} : all.front();
  }

  // Claims and processes `key`, then finds it.
  void round_trip(const ClaimKey& key) {
    const ClaimResult claimed = store_->try_claim(key, "w", kLease);
    ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
    ASSERT_TRUE(store_->mark_processed(key, claimed.token));
    const std::optional<ClaimEntry> found = store_->find(key);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->key, key);
    EXPECT_EQ(found->status, ClaimStatus::kProcessed);
    EXPECT_EQ(store_->try_claim(key, "w2", kLease).outcome, ClaimOutcome::kAlreadyProcessed);
  }

  // The requests `call` sends.
  static std::uint64_t requests_of(const std::function<void()>& call) {
    const std::uint64_t before = kit::http::docket_requests().load();
    call();
    return kit::http::docket_requests().load() - before;
  }

  // Each result's token, in order.
  static std::vector<ClaimToken> tokens(const std::vector<ClaimResult>& claims) {
    std::vector<ClaimToken> out;
    for (const ClaimResult& claim : claims) {
      out.push_back(claim.token);
    }
    return out;
  }

  ManualClock clock_;
  std::unique_ptr<ClaimInboxStore> store_;
};

TEST_F(FirestoreClaimInboxTest, AMessageIdWithASlashIsOneDocumentOfTheCollection) {
  const ClaimKey key(TenantId("acme"), "orders/42", "OrderHandler");
  round_trip(key);
  const Document document = only_document();
  EXPECT_EQ(document.id, "inbox:acme:orders%2F42:OrderHandler");
  EXPECT_FALSE(store_->find(ClaimKey(TenantId("acme"), "orders", "OrderHandler")).has_value());
}

TEST_F(FirestoreClaimInboxTest, TheUntenantedSentinelWithAHandlerEndingInUnderscoresIsStored) {
  const ClaimKey key(TenantId::untenanted(), "m-1", "Handler__");
  round_trip(key);
  EXPECT_EQ(only_document().id, "inbox:__untenanted__:m-1:Handler__");
}

TEST_F(FirestoreClaimInboxTest, TheSpecificationsWorkedExampleIsStoredAndFound) {
  const ClaimKey key(TenantId("3f2504e0-4f89-41d3-9a0c-0305e82c3301"),
                     "9b2c1f4e-7a65-4e0b-8f2d-6c1a0b9e4d72", kNestedGenericHandler);
  round_trip(key);
  EXPECT_EQ(only_document().id.size(), 665u + 6u);
}

TEST_F(FirestoreClaimInboxTest, EveryWritePathLeavesMessageIdAndHandlerTypeOnTheDocument) {
  const ClaimKey key(TenantId("acme_corp"), "42", "H");
  const auto expect_terms = [&](std::string_view after) {
    const Document document = only_document();
    const FieldReader fields(document.fields, std::string(after));
    EXPECT_EQ(fields.string(claim::kMessageId), "42") << after;
    EXPECT_EQ(fields.string(claim::kHandlerType), "H") << after;
    EXPECT_EQ(fields.string(claim::kTenant), "acme_corp") << after;
  };
  ASSERT_TRUE(store_->try_mark_processed(key));
  expect_terms("try_mark_processed");
  ASSERT_EQ(store_->cleanup_processed(TenantId("acme_corp"), clock_.now() + kLease), 1u);
  ClaimResult claimed = store_->try_claim(key, "w", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  expect_terms("try_claim");
  ASSERT_TRUE(store_->mark_failed(key, claimed.token, ClaimFailure{"boom", clock_.now()}));
  expect_terms("mark_failed");
  claimed = store_->try_claim(key, "w", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->renew(key, claimed.token, kLease).has_value());
  expect_terms("renew");
  ASSERT_TRUE(store_->release(key, claimed.token));
  expect_terms("release");
  claimed = store_->try_claim(key, "w", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->mark_processed(key, claimed.token));
  expect_terms("mark_processed");
}

TEST_F(FirestoreClaimInboxTest, AnEntryDocketDidNotWriteIsRefusedNamingTheDocumentAndTheField) {
  const ClaimKey key(TenantId("acme"), "m-1", "H");
  ASSERT_EQ(store_->try_claim(key, "w", kLease).outcome, ClaimOutcome::kClaimed);
  const Document document = only_document();
  nlohmann::json fields = document.fields;
  fields[claim::kRetryCount] = string_value("many");
  const Write damage{
      .collection = collection(claim::kCollection), .id = document.id, .fields = fields};
  ASSERT_TRUE(commit(client_, std::span<const Write>(&damage, 1), "test").applied);
  EXPECT_THAT([&] { store_->find(key); },
              ThrowsMessage<InfrastructureError>(AllOf(HasSubstr("Firestore claim inbox"),
                                                       HasSubstr("document 'inbox:acme:m-1:H'"),
                                                       HasSubstr("field 'retryCount'"))));
}

// A new message's claim is one commit, with no read; an existing entry costs the refused
// commit and the read, and the commit of the claim where it is claimable.
TEST_F(FirestoreClaimInboxTest, ANewMessageIsClaimedWithOneRequestAndAnExistingEntryIsReadFirst) {
  const ClaimKey key(TenantId("acme"), "m-1", "H");
  const auto claim_counting = [&](std::string_view owner) {
    const std::uint64_t before = kit::http::docket_requests().load();
    const ClaimResult result = store_->try_claim(key, owner, kLease);
    return std::pair(result, kit::http::docket_requests().load() - before);
  };
  const auto [claimed, to_claim] = claim_counting("w1");
  EXPECT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claimed.lease_until, clock_.now() + kLease);
  EXPECT_EQ(to_claim, 1u);

  const auto [held, to_find_held] = claim_counting("w2");
  EXPECT_EQ(held.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(to_find_held, 2u);

  ASSERT_TRUE(store_->mark_failed(key, claimed.token, ClaimFailure{"boom", clock_.now()}));
  const auto [retried, to_retry] = claim_counting("w2");
  EXPECT_EQ(retried.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(retried.retry_count, 1u);
  EXPECT_EQ(to_retry, 3u);
  const std::optional<ClaimEntry> entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->owner, "w2");
  EXPECT_EQ(entry->claim_id, retried.token.claim_id);
}

// The end or renewal of a claim this store made commits under the claim's own latest
// update_time: one request, no read.
TEST_F(FirestoreClaimInboxTest, TheEndOfAClaimThisStoreMadeIsOneRequest) {
  const ClaimKey processed(TenantId("acme"), "m-1", "H");
  const ClaimResult first = store_->try_claim(processed, "w", kLease);
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(requests_of([&] { EXPECT_TRUE(store_->mark_processed(processed, first.token)); }), 1u);
  EXPECT_EQ(store_->find(processed)->status, ClaimStatus::kProcessed);

  const ClaimKey failed(TenantId("acme"), "m-2", "H");
  const ClaimResult second = store_->try_claim(failed, "w", kLease);
  ASSERT_EQ(second.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(
      requests_of([&] {
        EXPECT_TRUE(store_->mark_failed(failed, second.token, ClaimFailure{"boom", clock_.now()}));
      }),
      1u);
  // Claimed again after a read (the refused create), renewed, and released.
  const ClaimResult third = store_->try_claim(failed, "w", kLease);
  ASSERT_EQ(third.outcome, ClaimOutcome::kClaimed);
  clock_.advance(std::chrono::seconds(10));
  EXPECT_EQ(requests_of([&] {
              EXPECT_EQ(store_->renew(failed, third.token, kLease), clock_.now() + kLease);
            }),
            1u);
  EXPECT_EQ(store_->find(failed)->lease_until, clock_.now() + kLease);
  EXPECT_EQ(requests_of([&] { EXPECT_TRUE(store_->release(failed, third.token)); }), 1u);
  const std::optional<ClaimEntry> released = store_->find(failed);
  ASSERT_TRUE(released.has_value());
  EXPECT_EQ(released->status, ClaimStatus::kReceived);
  EXPECT_EQ(released->retry_count, 1u);
}

// What a store remembers of its claim is never trusted past the precondition: a claim
// taken over through another store since (its lease over) is read, and not ended; and
// another owner's end is refused only after a read.
TEST_F(FirestoreClaimInboxTest, ARememberedClaimTakenOverSinceIsReadAndNotEnded) {
  const auto requests_since = [](std::uint64_t before) {
    return kit::http::docket_requests().load() - before;
  };
  const ClaimKey key(TenantId("acme"), "m-1", "H");
  const ClaimResult first = store_->try_claim(key, "w1", kLease);
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  clock_.advance(kLease + std::chrono::seconds(1));
  const std::unique_ptr<ClaimInboxStore> other = open_claim_inbox_store(collections_.url(), clock_);
  const ClaimResult taken = other->try_claim(key, "w2", kLease);
  ASSERT_EQ(taken.outcome, ClaimOutcome::kClaimed);
  std::uint64_t before = kit::http::docket_requests().load();
  EXPECT_FALSE(store_->mark_processed(key, first.token));
  EXPECT_EQ(requests_since(before), 2u);  // the refused commit, then the read
  std::optional<ClaimEntry> entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry->owner, "w2");
  EXPECT_TRUE(other->mark_processed(key, taken.token));

  // Another owner presenting w1's claim id: read, refused, and w1's remembered claim
  // kept, so that w1's own end is still one request.
  const ClaimKey mine(TenantId("acme"), "m-2", "H");
  const ClaimResult claimed = store_->try_claim(mine, "w1", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  before = kit::http::docket_requests().load();
  EXPECT_FALSE(store_->mark_processed(mine, {.owner = "w2", .claim_id = claimed.token.claim_id}));
  EXPECT_EQ(requests_since(before), 1u);  // the read that confirms w1 holds it
  before = kit::http::docket_requests().load();
  EXPECT_TRUE(store_->mark_processed(mine, claimed.token));
  EXPECT_EQ(requests_since(before), 1u);
  entry = store_->find(mine);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessed);
}

// A batch is one batchWrite to claim and one to mark; an entry the batch write refused
// goes the one-entry way (read, then claim or mark), the others applied regardless.
TEST_F(FirestoreClaimInboxTest, ABatchIsOneRequestToClaimAndOneToMark) {
  std::vector<ClaimKey> batch;
  for (int i = 0; i < 6; ++i) {
    batch.emplace_back(TenantId("acme"), "m-" + std::to_string(i), "H");
  }
  std::vector<ClaimResult> claims;
  EXPECT_EQ(requests_of([&] { claims = store_->try_claim_batch(batch, "w1", kLease); }), 1u);
  for (const ClaimResult& claim : claims) {
    EXPECT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  const std::vector<ClaimToken> first = tokens(claims);
  std::vector<bool> marked;
  EXPECT_EQ(requests_of([&] { marked = store_->mark_processed_batch(batch, first); }), 1u);
  EXPECT_EQ(marked, std::vector<bool>(batch.size(), true));

  // Two entries exist: one processed (refused, read: 2 more requests), one failed
  // (refused, read, claimed: 3 more); four new. Then the marks: one batch write for the
  // five this store claimed.
  std::vector<ClaimKey> mixed = {batch[0]};
  const ClaimKey failed(TenantId("acme"), "failed", "H");
  const ClaimResult failing = store_->try_claim(failed, "w0", kLease);
  ASSERT_EQ(failing.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->mark_failed(failed, failing.token, {"boom", clock_.now()}));
  mixed.push_back(failed);
  for (int i = 0; i < 4; ++i) {
    mixed.emplace_back(TenantId("acme"), "new-" + std::to_string(i), "H");
  }
  EXPECT_EQ(requests_of([&] { claims = store_->try_claim_batch(mixed, "w1", kLease); }), 4u);
  EXPECT_EQ(claims[0].outcome, ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(claims[1].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[1].retry_count, 1u);
  // m-0 marked with its first claim's token, which that claim's mark ended.
  std::vector<ClaimToken> marks = tokens(claims);
  marks[0] = first[0];
  EXPECT_EQ(requests_of([&] { marked = store_->mark_processed_batch(mixed, marks); }),
            1u + 1u);  // the batch write, and the read that finds m-0 is not w1's
  EXPECT_EQ(marked, (std::vector<bool>{false, true, true, true, true, true}));
}

// The same owner claims the entry again through the same store after its first claim's
// lease ran out (a second thread of one runner): the first claim's token, its owner the
// same, changes nothing on any path (each a read: the store remembers the current
// claim, not the stale one), and the current claim's renews and ends, each one request
// from the remembered claim.
TEST_F(FirestoreClaimInboxTest, AStaleClaimIdOfTheSameOwnerChangesNothing) {
  const ClaimKey key(TenantId("acme"), "m-1", "H");
  const ClaimResult first = store_->try_claim(key, "w1", kLease);
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  clock_.advance(kLease + std::chrono::seconds(1));
  const ClaimResult second = store_->try_claim(key, "w1", kLease);
  ASSERT_EQ(second.outcome, ClaimOutcome::kClaimed);
  ASSERT_EQ(second.token.owner, first.token.owner);
  ASSERT_NE(second.token.claim_id, first.token.claim_id);
  const std::optional<ClaimEntry> held = store_->find(key);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->claim_id, second.token.claim_id);

  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(requests_of([&] { EXPECT_FALSE(store_->mark_processed(key, first.token)); }), 1u);
  EXPECT_FALSE(store_->release(key, first.token));
  EXPECT_FALSE(store_->mark_failed(key, first.token, ClaimFailure{"late", clock_.now()}));
  EXPECT_EQ(store_->renew(key, first.token, kLease), std::nullopt);
  EXPECT_EQ(store_->mark_processed_batch(std::span(&key, 1), std::span(&first.token, 1)),
            std::vector<bool>{false});
  EXPECT_EQ(store_->find(key), held);

  EXPECT_EQ(requests_of([&] {
              EXPECT_EQ(store_->renew(key, second.token, kLease), clock_.now() + kLease);
            }),
            1u);
  std::optional<ClaimEntry> entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->lease_until, clock_.now() + kLease);
  EXPECT_EQ(entry->updated_at, clock_.now());
  EXPECT_EQ(requests_of([&] { EXPECT_TRUE(store_->mark_processed(key, second.token)); }), 1u);
  entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry->owner, std::nullopt);
  EXPECT_EQ(entry->claim_id, std::nullopt);
  EXPECT_EQ(store_->renew(key, second.token, kLease), std::nullopt);
}

// A batch of one runner, one entry of it re-claimed by the same owner after the lease
// ran out: the batch's mark presents the first claim's token for it, which is stale,
// and marks the others (one batch write) and not that one (one read).
TEST_F(FirestoreClaimInboxTest, ABatchMarkWithOneStaleTokenMarksTheOthersAndNotThatOne) {
  std::vector<ClaimKey> batch;
  for (int i = 0; i < 3; ++i) {
    batch.emplace_back(TenantId("acme"), "m-" + std::to_string(i), "H");
  }
  const std::vector<ClaimResult> claims = store_->try_claim_batch(batch, "w1", kLease);
  for (const ClaimResult& claim : claims) {
    ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  clock_.advance(kLease + std::chrono::seconds(1));
  const ClaimResult again = store_->try_claim(batch[1], "w1", kLease);
  ASSERT_EQ(again.outcome, ClaimOutcome::kClaimed);

  std::vector<bool> marked;
  EXPECT_EQ(requests_of([&] { marked = store_->mark_processed_batch(batch, tokens(claims)); }), 2u);
  EXPECT_EQ(marked, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(store_->find(batch[0])->status, ClaimStatus::kProcessed);
  EXPECT_EQ(store_->find(batch[2])->status, ClaimStatus::kProcessed);
  const std::optional<ClaimEntry> current = store_->find(batch[1]);
  ASSERT_TRUE(current.has_value());
  EXPECT_EQ(current->status, ClaimStatus::kProcessing);
  EXPECT_EQ(current->claim_id, again.token.claim_id);
  EXPECT_EQ(current->lease_until, clock_.now() + kLease);
  EXPECT_TRUE(store_->mark_processed(batch[1], again.token));
}

// An entry claimed before claim ids existed has no claimId field: it reads back
// without one, no token ends it, and once its lease is over it is claimed as any entry
// is, under a claim id of its own.
TEST_F(FirestoreClaimInboxTest, AnEntryClaimedBeforeClaimIdsReadsBackAndIsClaimedOnceItsLeaseEnds) {
  const ClaimKey key(TenantId("acme"), "m-1", "H");
  ClaimEntry old(key);
  old.status = ClaimStatus::kProcessing;
  old.received_at = clock_.now();
  old.updated_at = clock_.now();
  old.owner = "w0";
  old.lease_until = clock_.now() + kLease;
  nlohmann::json fields = claim::claim_fields(old);
  fields.erase(std::string(claim::kClaimId));
  const Write write{.collection = collection(claim::kCollection),
                    .id = kit::inbox_entry_id(keys::Provider::kFirestore, key).value,
                    .fields = fields};
  ASSERT_TRUE(commit(client_, std::span<const Write>(&write, 1), "test").applied);

  std::optional<ClaimEntry> entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry, old);
  EXPECT_EQ(entry->claim_id, std::nullopt);
  EXPECT_FALSE(store_->mark_processed(key, {.owner = "w0", .claim_id = "any"}));
  EXPECT_EQ(store_->try_claim(key, "w1", kLease).outcome, ClaimOutcome::kHeldByAnother);

  clock_.advance(kLease);
  const ClaimResult claimed = store_->try_claim(key, "w1", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->owner, "w1");
  EXPECT_EQ(entry->claim_id, claimed.token.claim_id);
  EXPECT_TRUE(store_->mark_processed(key, claimed.token));
}

}  // namespace firestore_claim_inbox_test
}  // namespace docket::firestore::detail
