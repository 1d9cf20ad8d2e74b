// The Firestore claim inbox beyond the conformance suite: the ids of
// inbox-document-ids.txt as documents (a message id with '/', the untenanted sentinel
// with a handler type ending in "__", the specification's 665-byte worked example),
// messageId and handlerType on every write path, a refusal naming the document for an
// entry docket did not write, and the requests a claim sends.
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
    ASSERT_EQ(store_->try_claim(key, "w", kLease).outcome, ClaimOutcome::kClaimed);
    ASSERT_TRUE(store_->mark_processed(key, "w"));
    const std::optional<ClaimEntry> found = store_->find(key);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->key, key);
    EXPECT_EQ(found->status, ClaimStatus::kProcessed);
    EXPECT_EQ(store_->try_claim(key, "w2", kLease).outcome, ClaimOutcome::kAlreadyProcessed);
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
  ASSERT_EQ(store_->try_claim(key, "w", kLease).outcome, ClaimOutcome::kClaimed);
  expect_terms("try_claim");
  ASSERT_TRUE(store_->mark_failed(key, "w", ClaimFailure{"boom", clock_.now()}));
  expect_terms("mark_failed");
  ASSERT_EQ(store_->try_claim(key, "w", kLease).outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->release(key, "w"));
  expect_terms("release");
  ASSERT_EQ(store_->try_claim(key, "w", kLease).outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->mark_processed(key, "w"));
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
  const auto requests_of = [&](std::string_view owner) {
    const std::uint64_t before = kit::http::docket_requests().load();
    const ClaimResult result = store_->try_claim(key, owner, kLease);
    return std::pair(result, kit::http::docket_requests().load() - before);
  };
  const auto [claimed, to_claim] = requests_of("w1");
  EXPECT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claimed.lease_until, clock_.now() + kLease);
  EXPECT_EQ(to_claim, 1u);

  const auto [held, to_find_held] = requests_of("w2");
  EXPECT_EQ(held.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(to_find_held, 2u);

  ASSERT_TRUE(store_->mark_failed(key, "w1", ClaimFailure{"boom", clock_.now()}));
  const auto [retried, to_retry] = requests_of("w2");
  EXPECT_EQ(retried.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(retried.retry_count, 1u);
  EXPECT_EQ(to_retry, 3u);
  const std::optional<ClaimEntry> entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->owner, "w2");
}

// The end of a claim this store made commits under the claim's own update_time: one
// request, no read.
TEST_F(FirestoreClaimInboxTest, TheEndOfAClaimThisStoreMadeIsOneRequest) {
  const auto requests_of = [&](const std::function<bool()>& call) {
    const std::uint64_t before = kit::http::docket_requests().load();
    EXPECT_TRUE(call());
    return kit::http::docket_requests().load() - before;
  };
  const ClaimKey processed(TenantId("acme"), "m-1", "H");
  ASSERT_EQ(store_->try_claim(processed, "w", kLease).outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(requests_of([&] { return store_->mark_processed(processed, "w"); }), 1u);
  EXPECT_EQ(store_->find(processed)->status, ClaimStatus::kProcessed);

  const ClaimKey failed(TenantId("acme"), "m-2", "H");
  ASSERT_EQ(store_->try_claim(failed, "w", kLease).outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(requests_of([&] {
              return store_->mark_failed(failed, "w", ClaimFailure{"boom", clock_.now()});
            }),
            1u);
  // Claimed again after a read (the refused create), and released.
  ASSERT_EQ(store_->try_claim(failed, "w", kLease).outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(requests_of([&] { return store_->release(failed, "w"); }), 1u);
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
  ASSERT_EQ(store_->try_claim(key, "w1", kLease).outcome, ClaimOutcome::kClaimed);
  clock_.advance(kLease + std::chrono::seconds(1));
  const std::unique_ptr<ClaimInboxStore> other = open_claim_inbox_store(collections_.url(), clock_);
  ASSERT_EQ(other->try_claim(key, "w2", kLease).outcome, ClaimOutcome::kClaimed);
  std::uint64_t before = kit::http::docket_requests().load();
  EXPECT_FALSE(store_->mark_processed(key, "w1"));
  EXPECT_EQ(requests_since(before), 2u);  // the refused commit, then the read
  std::optional<ClaimEntry> entry = store_->find(key);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry->owner, "w2");
  EXPECT_TRUE(other->mark_processed(key, "w2"));

  const ClaimKey mine(TenantId("acme"), "m-2", "H");
  ASSERT_EQ(store_->try_claim(mine, "w1", kLease).outcome, ClaimOutcome::kClaimed);
  before = kit::http::docket_requests().load();
  EXPECT_FALSE(store_->mark_processed(mine, "w2"));
  EXPECT_EQ(requests_since(before), 1u);  // the read that confirms w1 holds it
  EXPECT_TRUE(store_->mark_processed(mine, "w1"));
  entry = store_->find(mine);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->status, ClaimStatus::kProcessed);
}

// A batch is one batchWrite to claim and one to mark; an entry the batch write refused
// goes the one-entry way (read, then claim or mark), the others applied regardless.
TEST_F(FirestoreClaimInboxTest, ABatchIsOneRequestToClaimAndOneToMark) {
  const auto requests_of = [](const std::function<void()>& call) {
    const std::uint64_t before = kit::http::docket_requests().load();
    call();
    return kit::http::docket_requests().load() - before;
  };
  std::vector<ClaimKey> batch;
  for (int i = 0; i < 6; ++i) {
    batch.emplace_back(TenantId("acme"), "m-" + std::to_string(i), "H");
  }
  std::vector<ClaimResult> claims;
  EXPECT_EQ(requests_of([&] { claims = store_->try_claim_batch(batch, "w1", kLease); }), 1u);
  for (const ClaimResult& claim : claims) {
    EXPECT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  std::vector<bool> marked;
  EXPECT_EQ(requests_of([&] { marked = store_->mark_processed_batch(batch, "w1"); }), 1u);
  EXPECT_EQ(marked, std::vector<bool>(batch.size(), true));

  // Two entries exist: one processed (refused, read: 2 more requests), one failed
  // (refused, read, claimed: 3 more); four new. Then the marks: one batch write for the
  // five this store claimed.
  std::vector<ClaimKey> mixed = {batch[0]};
  const ClaimKey failed(TenantId("acme"), "failed", "H");
  ASSERT_EQ(store_->try_claim(failed, "w0", kLease).outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->mark_failed(failed, "w0", {"boom", clock_.now()}));
  mixed.push_back(failed);
  for (int i = 0; i < 4; ++i) {
    mixed.emplace_back(TenantId("acme"), "new-" + std::to_string(i), "H");
  }
  EXPECT_EQ(requests_of([&] { claims = store_->try_claim_batch(mixed, "w1", kLease); }), 4u);
  EXPECT_EQ(claims[0].outcome, ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(claims[1].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[1].retry_count, 1u);
  EXPECT_EQ(requests_of([&] { marked = store_->mark_processed_batch(mixed, "w1"); }),
            1u + 1u);  // the batch write, and the read that finds m-0 is not w1's
  EXPECT_EQ(marked, (std::vector<bool>{false, true, true, true, true, true}));
}

}  // namespace firestore_claim_inbox_test
}  // namespace docket::firestore::detail
