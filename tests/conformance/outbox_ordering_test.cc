// Order per key: claim() hands out a message with an ordering key only when every
// earlier message of its tenant and key is done or skipped, so at most one message per
// (tenant, key) is leased at a time; a message without a key is never held back; a
// parked message holds its key until an operator replays or skips it.
#include <barrier>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

class OutboxOrderingTest : public OutboxConformance {
 protected:
  std::string stage_keyed(std::optional<std::string> key, const std::string& tenant = "acme") {
    TenantScope scope{TenantId(tenant)};
    return stage({.event_type = "OrderChanged", .ordering_key = std::move(key)});
  }

  std::vector<std::string> claim_ids(std::string_view token, std::size_t limit = 100) {
    std::vector<std::string> ids;
    for (const OutboxRecord& r : store_->claim(token, clock_.now(), lease_until(), limit)) {
      ids.push_back(r.id);
    }
    return ids;
  }

  Timestamp lease_until() const { return clock_.now() + std::chrono::seconds(30); }

  // Parks `id`: claims it (it must be its key's first) and records a parking failure.
  void park(const std::string& id) {
    ASSERT_EQ(claim_ids("parker", 1), std::vector<std::string>{id});
    ASSERT_TRUE(store_->fail(id, "parker", {.error = "poison", .park = true}));
  }
};

using Ids = std::vector<std::string>;

TEST_P(OutboxOrderingTest, EachKeyHandsOutItsEarliestMessageFirstPerTenant) {
  const std::string a1 = stage_keyed("a");
  const std::string b1 = stage_keyed("b");
  const std::string a2 = stage_keyed("a");
  const std::string other_a1 = stage_keyed("a", "globex");  // same key, another tenant
  const std::string free1 = stage_keyed(std::nullopt);
  const std::string b2 = stage_keyed("b");
  const std::string other_a2 = stage_keyed("a", "globex");
  const std::string free2 = stage_keyed(std::nullopt);

  EXPECT_EQ(claim_ids("r1"), (Ids{a1, b1, other_a1, free1, free2}));
  EXPECT_TRUE(claim_ids("r2").empty()) << "every key's earliest message is leased";
  for (const auto& id : {a1, b1, other_a1, free1, free2}) {
    ASSERT_TRUE(store_->complete(id, "r1", clock_.now()));
  }
  EXPECT_EQ(claim_ids("r2"), (Ids{a2, b2, other_a2}));
}

TEST_P(OutboxOrderingTest, AMessageInBackoffHoldsItsKeyAndMessagesWithoutAKeyFlowPast) {
  const std::string a1 = stage_keyed("a");
  const std::string a2 = stage_keyed("a");
  ASSERT_EQ(claim_ids("r1", 1), Ids{a1});
  ASSERT_TRUE(store_->fail(
      a1, "r1", {.error = "nack", .next_attempt_at = clock_.now() + std::chrono::seconds(5)}));
  const std::string free1 = stage_keyed(std::nullopt);

  EXPECT_EQ(claim_ids("r2"), Ids{free1}) << "a2 waits for a1, which is in backoff";
  clock_.advance(std::chrono::seconds(5));
  EXPECT_EQ(claim_ids("r2"), Ids{a1});
  ASSERT_TRUE(store_->complete(a1, "r2", clock_.now()));
  EXPECT_EQ(claim_ids("r3"), Ids{a2});
}

TEST_P(OutboxOrderingTest, ALeasedMessageHoldsItsKeyUntilDone) {
  const std::string a1 = stage_keyed("a");
  const std::string a2 = stage_keyed("a");
  ASSERT_EQ(claim_ids("r1", 1), Ids{a1});
  EXPECT_TRUE(claim_ids("r2").empty());
  ASSERT_TRUE(store_->complete(a1, "r1", clock_.now()));
  EXPECT_EQ(claim_ids("r2"), Ids{a2});
}

TEST_P(OutboxOrderingTest, AParkedMessageHoldsItsKeyUntilReplayed) {
  const std::string a1 = stage_keyed("a");
  const std::string a2 = stage_keyed("a");
  const std::string b1 = stage_keyed("b");
  park(a1);
  EXPECT_EQ(claim_ids("r1"), Ids{b1}) << "a2 waits behind the parked a1";
  ASSERT_TRUE(outbox_->replay(a1));
  EXPECT_EQ(claim_ids("r2"), Ids{a1}) << "the replayed message goes first, a2 still waits";
  ASSERT_TRUE(store_->complete(a1, "r2", clock_.now()));
  EXPECT_EQ(claim_ids("r3"), Ids{a2});
}

TEST_P(OutboxOrderingTest, SkippingAParkedMessageReleasesItsKeyAndRecordsTheSkip) {
  const std::string a1 = stage_keyed("a");
  const std::string a2 = stage_keyed("a");
  park(a1);
  EXPECT_TRUE(claim_ids("r1").empty());
  outbox_->skip(a1);
  const auto skipped = store_->find(a1);
  EXPECT_EQ(skipped->status, OutboxStatus::kSkipped);
  EXPECT_EQ(skipped->done_at, clock_.now());
  EXPECT_EQ(skipped->last_error, "poison");
  EXPECT_TRUE(outbox_->parked().empty());
  EXPECT_EQ(claim_ids("r1"), Ids{a2});
}

TEST_P(OutboxOrderingTest, SkipRefusesAMessageThatIsNotParked) {
  const std::string pending = stage_keyed("a");
  const auto refused = [&](std::string_view id, const std::string& says) {
    try {
      outbox_->skip(id);
      ADD_FAILURE() << "skip must refuse " << id;
    } catch (const InvalidInputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused(pending, "is pending, not parked");
  refused(Uuid::v7().to_string(), "no message has id");
  refused("", "the message id is empty");
  EXPECT_EQ(store_->find(pending)->status, OutboxStatus::kPending);
}

// Relays on real threads, started together, claim and complete until every message is
// done: no key ever has two messages leased at once, and each key's messages are handed
// out in staging order. The manual clock stands still, so no lease runs out.
TEST_P(OutboxOrderingTest, ConcurrentRelaysKeepOneLeasePerKeyAndStagingOrder) {
  constexpr int kRelays = 4;
  constexpr int kPerKey = 6;
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"acme", "a"}, {"acme", "b"}, {"acme", "c"}, {"globex", "a"}};
  std::map<std::pair<std::string, std::string>, Ids> staged;
  std::size_t total = 0;
  for (int i = 0; i < kPerKey; ++i) {
    for (const auto& [tenant, key] : keys) {
      staged[{tenant, key}].push_back(stage_keyed(key, tenant));
      ++total;
    }
    stage_keyed(std::nullopt);
    ++total;
  }

  std::mutex mutex;
  std::set<std::pair<std::string, std::string>> leased_keys;
  std::map<std::pair<std::string, std::string>, Ids> handed_out;
  int overlaps = 0;
  std::size_t done = 0;
  std::barrier start(kRelays);
  std::vector<std::thread> relays;
  for (int r = 0; r < kRelays; ++r) {
    relays.emplace_back([&, token = "relay-" + std::to_string(r)] {
      start.arrive_and_wait();
      while (true) {
        {
          std::lock_guard lock(mutex);
          if (done == total) {
            return;
          }
        }
        const auto batch = store_->claim(token, clock_.now(), lease_until(), 3);
        for (const OutboxRecord& row : batch) {
          if (!row.ordering_key) {
            continue;
          }
          std::lock_guard lock(mutex);
          if (!leased_keys.emplace(row.tenant, *row.ordering_key).second) {
            ++overlaps;
          }
          handed_out[{row.tenant, *row.ordering_key}].push_back(row.id);
        }
        for (const OutboxRecord& row : batch) {
          if (row.ordering_key) {
            // Released before the store releases it, so a claim of the next message of
            // the key can only be counted once this one is done.
            std::lock_guard lock(mutex);
            leased_keys.erase({row.tenant, *row.ordering_key});
          }
          const bool completed = store_->complete(row.id, token, clock_.now());
          std::lock_guard lock(mutex);
          EXPECT_TRUE(completed) << row.id;
          ++done;
        }
        if (batch.empty()) {
          std::this_thread::yield();
        }
      }
    });
  }
  for (auto& relay : relays) {
    relay.join();
  }
  EXPECT_EQ(overlaps, 0);
  EXPECT_EQ(handed_out, staged);
  for (const OutboxRecord& row : store_->read_feed(0, total + 1)) {
    EXPECT_EQ(row.status, OutboxStatus::kDone) << row.id;
  }
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxOrderingTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
