// The operator's reads: one entry, counts by status, failed entries due for retry,
// and every entry page by page.
#include <set>

#include "claim_suite.h"
#include "docket/core/error.h"

namespace docket::conformance {
namespace {

using std::chrono::seconds;

class ClaimAdminTest : public ClaimConformance {
 protected:
  // Leaves `key` failed `times` times, due at now + `due_in`.
  void fail(const ClaimKey& key, int times, seconds due_in) {
    for (int i = 0; i < times; ++i) {
      ASSERT_EQ(store_->try_claim(key, "w", kLease).outcome, ClaimOutcome::kClaimed);
      ASSERT_TRUE(store_->mark_failed(key, token(key, "w"),
                                      {"boom " + std::to_string(i), clock_.now() + due_in}));
    }
  }
};

TEST_P(ClaimAdminTest, CountsByStatusForOneTenantOrAll) {
  EXPECT_EQ(store_->counts(std::nullopt), ClaimCounts{});
  const Timestamp first = clock_.now();
  store_->try_claim(key("r", "acme"), "w", kLease);
  store_->release(key("r", "acme"), token(key("r", "acme"), "w"));
  clock_.advance(seconds(1));
  store_->try_claim(key("p", "acme"), "w", kLease);
  process(key("done-1", "acme"));
  process(key("done-2", "globex"));
  fail(key("due", "globex"), 1, seconds(0));
  fail(key("later", "globex"), 1, seconds(60));

  const ClaimCounts all = store_->counts(std::nullopt);
  EXPECT_EQ(all.received, 1u);
  EXPECT_EQ(all.processing, 1u);
  EXPECT_EQ(all.processed, 2u);
  EXPECT_EQ(all.failed, 2u);
  EXPECT_EQ(all.failed_due, 1u);
  EXPECT_EQ(all.oldest_pending, first);

  const ClaimCounts acme = store_->counts(TenantId("acme"));
  EXPECT_EQ(acme.received, 1u);
  EXPECT_EQ(acme.processing, 1u);
  EXPECT_EQ(acme.processed, 1u);
  EXPECT_EQ(acme.failed, 0u);
  EXPECT_EQ(acme.oldest_pending, first);

  const ClaimCounts globex = store_->counts(TenantId("globex"));
  EXPECT_EQ(globex.processed, 1u);
  EXPECT_EQ(globex.failed, 2u);
  EXPECT_EQ(globex.failed_due, 1u);
  EXPECT_EQ(globex.oldest_pending, first + seconds(1));

  EXPECT_EQ(store_->counts(TenantId("initech")), ClaimCounts{});
}

TEST_P(ClaimAdminTest, FailedDueAreThoseDueUnderTheRetryLimitEarliestFirst) {
  fail(key("late"), 1, seconds(30));
  fail(key("early"), 1, seconds(10));
  fail(key("exhausted"), 3, seconds(0));
  fail(key("future"), 1, seconds(3600));
  store_->try_claim(key("processing"), "w", kLease);
  clock_.advance(seconds(30));

  std::vector<std::string> due;
  for (const ClaimEntry& e : store_->failed_due(3, 100)) {
    EXPECT_EQ(e.status, ClaimStatus::kFailed);
    due.push_back(e.key.message_id());
  }
  EXPECT_EQ(due, (std::vector<std::string>{"early", "late"}));
  EXPECT_EQ(store_->failed_due(4, 100).size(), 3u);
  EXPECT_EQ(store_->failed_due(4, 1).front().key.message_id(), "exhausted");
  EXPECT_TRUE(store_->failed_due(0, 100).empty());
  EXPECT_THROW(store_->failed_due(3, 0), InvalidInputError);
  EXPECT_THROW(store_->failed_due(3, kMaxClaimPageSize + 1), InvalidInputError);
}

TEST_P(ClaimAdminTest, PagesVisitEveryEntryOnceInAStableOrder) {
  std::set<std::string> written;
  for (int i = 0; i < 23; ++i) {
    const std::string tenant = i % 3 == 0 ? "globex" : "acme";
    const std::string id = "m-" + std::to_string(i);
    store_->try_claim(key(id, tenant), "w", kLease);
    written.insert(tenant + "/" + id);
  }
  std::set<std::string> seen;
  std::optional<ClaimKey> after;
  int pages = 0;
  do {
    const ClaimPage page = store_->entries({.after = after, .limit = 5});
    ASSERT_LE(page.entries.size(), 5u);
    for (const ClaimEntry& e : page.entries) {
      EXPECT_TRUE(seen.insert(e.key.tenant().value() + "/" + e.key.message_id()).second);
    }
    if (page.next) {
      EXPECT_EQ(page.entries.size(), 5u);
      EXPECT_EQ(*page.next, page.entries.back().key);
    }
    after = page.next;
    ASSERT_LT(++pages, 10);
  } while (after);
  EXPECT_EQ(seen, written);
  EXPECT_EQ(pages, 5);
}

TEST_P(ClaimAdminTest, PagesFilterByTenantAndStatus) {
  for (int i = 0; i < 6; ++i) {
    store_->try_claim(key("m-" + std::to_string(i), i < 4 ? "acme" : "globex"), "w", kLease);
  }
  store_->mark_processed(key("m-1", "acme"), token(key("m-1", "acme"), "w"));
  store_->mark_processed(key("m-5", "globex"), token(key("m-5", "globex"), "w"));

  const ClaimPage acme = store_->entries({.tenant = TenantId("acme"), .limit = 100});
  EXPECT_EQ(acme.entries.size(), 4u);
  EXPECT_EQ(acme.next, std::nullopt);
  const ClaimPage processed = store_->entries({.status = ClaimStatus::kProcessed, .limit = 100});
  ASSERT_EQ(processed.entries.size(), 2u);
  const ClaimPage acme_processing =
      store_->entries({.tenant = TenantId("acme"), .status = ClaimStatus::kProcessing, .limit = 2});
  EXPECT_EQ(acme_processing.entries.size(), 2u);
  ASSERT_TRUE(acme_processing.next.has_value());
  const ClaimPage rest = store_->entries({.tenant = TenantId("acme"),
                                          .status = ClaimStatus::kProcessing,
                                          .after = acme_processing.next,
                                          .limit = 2});
  ASSERT_EQ(rest.entries.size(), 1u);
  EXPECT_EQ(rest.next, std::nullopt);
  for (const ClaimEntry& e : rest.entries) {
    EXPECT_EQ(e.status, ClaimStatus::kProcessing);
    EXPECT_EQ(e.key.tenant().value(), "acme");
  }
  EXPECT_THROW(store_->entries({.limit = 0}), InvalidInputError);
  EXPECT_THROW(store_->entries({.limit = kMaxClaimPageSize + 1}), InvalidInputError);
}

TEST_P(ClaimAdminTest, StatusNamesRoundTrip) {
  for (ClaimStatus s : {ClaimStatus::kReceived, ClaimStatus::kProcessing, ClaimStatus::kProcessed,
                        ClaimStatus::kFailed}) {
    EXPECT_EQ(parse_claim_status(to_string(s)), s);
  }
  EXPECT_EQ(parse_claim_status("Processed"), std::nullopt);
}

// retry_now makes a failed entry due at once (on the clock failed_due compares with),
// keeping its failures and last error; any other entry is left exactly as it was.
TEST_P(ClaimAdminTest, RetryNowMakesAFailedEntryDueAndNothingElse) {
  fail(key("later"), 2, seconds(3600));
  fail(key("other"), 1, seconds(3600));
  EXPECT_TRUE(store_->failed_due(10, 100).empty());
  const ClaimEntry before = store_->find(key("later")).value();
  clock_.advance(seconds(5));

  EXPECT_TRUE(store_->retry_now(key("later")));
  const std::vector<ClaimEntry> due = store_->failed_due(10, 100);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due.front().key, key("later"));
  const ClaimEntry after = store_->find(key("later")).value();
  EXPECT_EQ(after.status, ClaimStatus::kFailed);
  EXPECT_EQ(after.retry_count, 2u);
  EXPECT_EQ(after.last_error, std::optional<std::string>("boom 1"));
  EXPECT_EQ(after.next_attempt_at, clock_.now());
  EXPECT_EQ(after.updated_at, clock_.now());
  EXPECT_EQ(after.received_at, before.received_at);
  EXPECT_EQ(after.owner, std::nullopt);
  EXPECT_EQ(after.claim_id, std::nullopt);
  EXPECT_EQ(after.lease_until, std::nullopt);
  EXPECT_EQ(store_->counts(std::nullopt).failed_due, 1u);
  // Still a failed entry: a redelivery claims it, and the count goes on from 2.
  const ClaimResult claimed = store_->try_claim(key("later"), "w", kLease);
  EXPECT_EQ(claimed.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claimed.retry_count, 2u);

  // Absent: false, and still absent.
  EXPECT_FALSE(store_->retry_now(key("absent")));
  EXPECT_EQ(store_->find(key("absent")), std::nullopt);
  // Received, processing (a live lease and one run out), processed: false, unchanged.
  store_->try_claim(key("received"), "w", kLease);
  store_->release(key("received"), token(key("received"), "w"));
  store_->try_claim(key("expired"), "w", seconds(1));
  process(key("processed"));
  clock_.advance(seconds(2));
  for (const ClaimKey& k : {key("received"), key("later"), key("expired"), key("processed")}) {
    const std::optional<ClaimEntry> unchanged = store_->find(k);
    ASSERT_TRUE(unchanged.has_value()) << k.message_id();
    EXPECT_FALSE(store_->retry_now(k)) << k.message_id();
    EXPECT_EQ(store_->find(k), unchanged) << k.message_id();
  }
  EXPECT_EQ(store_->find(key("other"))->next_attempt_at, before.next_attempt_at);
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimAdminTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);

}  // namespace
}  // namespace docket::conformance
