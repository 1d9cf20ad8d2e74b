// Outbox::purge_parked_before on every outbox provider: it deletes exactly the parked
// messages whose last attempt became due before the cutoff, in batches, nothing else
// (pending, done, skipped, later parked ones stay), and a purged message's ordering key
// is released for the key's later messages.
#include <chrono>

#include "outbox_suite.h"

namespace docket::conformance {
namespace {

using namespace std::chrono_literals;

class OutboxPurgeParkedTest : public OutboxConformance {
 protected:
  // Parks the due message `id` (claimed alone, failed for the last time now).
  void park(const std::string& id) {
    for (const OutboxRecord& row : store_->claim("purge", clock_.now(), clock_.now() + 30s, 100)) {
      const bool it = row.id == id;
      ASSERT_TRUE(store_->fail(row.id, "purge",
                               {.error = it ? "refused" : "not now",
                                .park = it,
                                .next_attempt_at = it ? Timestamp{} : clock_.now()}));
    }
    ASSERT_EQ(store_->find(id)->status, OutboxStatus::kParked);
  }
};

TEST_P(OutboxPurgeParkedTest, DeletesOnlyTheParkedMessagesDueBeforeTheCutoff) {
  std::vector<std::string> old;
  for (int i = 0; i < 3; ++i) {
    old.push_back(stage({.event_type = "OrderPlaced", .payload = "{}"}));
    park(old.back());
  }
  const std::string pending = stage({.event_type = "OrderPlaced", .payload = "{}"});
  const Timestamp cutoff = clock_.now() + 30min;
  clock_.advance(1h);
  const std::string recent = stage({.event_type = "OrderPlaced", .payload = "{}"});
  park(recent);

  EXPECT_EQ(outbox_->purge_parked_before(cutoff, 2), 3U);  // two batches
  for (const std::string& id : old)
    EXPECT_FALSE(store_->find(id).has_value()) << id;
  EXPECT_EQ(store_->find(recent)->status, OutboxStatus::kParked);
  EXPECT_EQ(store_->find(pending)->status, OutboxStatus::kPending);
  EXPECT_EQ(outbox_->purge_parked_before(cutoff), 0U);
  EXPECT_THROW(outbox_->purge_parked_before(cutoff, 0), InvalidInputError);
}

TEST_P(OutboxPurgeParkedTest, APurgedMessageReleasesItsOrderingKey) {
  const std::string first =
      stage({.event_type = "OrderPlaced", .payload = "{}", .ordering_key = "order-1"});
  park(first);
  const std::string second =
      stage({.event_type = "OrderPaid", .payload = "{}", .ordering_key = "order-1"});
  EXPECT_TRUE(store_->claim("relay", clock_.now(), clock_.now() + 30s, 10).empty());
  clock_.advance(1s);
  EXPECT_EQ(outbox_->purge_parked_before(clock_.now()), 1U);
  const std::vector<OutboxRecord> claimed =
      store_->claim("relay", clock_.now(), clock_.now() + 30s, 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].id, second);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxPurgeParkedTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
