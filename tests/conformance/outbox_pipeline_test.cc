// The pipelined relay (Relay::run, Relay::drain) on real threads: it claims batch k+1
// while batch k is published and records k's results while k+1 is published, and
// keeps every invariant of a sequential pass: each key's messages are published in
// staging order, none before its key's earlier one is confirmed, also when the
// transport fails publishes; only confirmed messages are marked done; a stop records
// the batch in flight and leaves no row leased; a batch whose lease ended while it
// waited for its turn is not published; an idle relay claims once a poll interval.
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "claim_watching_store.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

using namespace std::chrono_literals;
using Ids = std::vector<std::string>;

// How long a test waits for something the relay's threads must do; reaching it fails
// the test instead of hanging it.
constexpr auto kDeadline = 60s;

// A clock that moves 1 ms every time it is read, so that the relay's backoffs pass as
// it works, without the test sleeping.
class AdvancingClock final : public Clock {
 public:
  explicit AdvancingClock(ManualClock& base) : base_(base) {}
  Timestamp now() const override {
    base_.advance(1ms);
    return base_.now();
  }

 private:
  ManualClock& base_;
};

// Passes batches on to an in-process transport and records every publish attempt with
// its outcome; with the gate closed, each batch waits at it (having been counted as
// entered) until the gate opens.
class WatchedTransport final : public Transport {
 public:
  struct Attempt {
    std::string id;
    std::string tenant;
    std::optional<std::string> key;
    bool confirmed = false;
  };

  explicit WatchedTransport(Transport& inner) : inner_(inner) {}

  void close_gate() {
    std::lock_guard lock(mutex_);
    gate_open_ = false;
  }
  void open_gate() {
    {
      std::lock_guard lock(mutex_);
      gate_open_ = true;
    }
    changed_.notify_all();
  }
  // Waits until `count` batches entered publish_batch; false at the deadline.
  bool wait_for_batches(std::size_t count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, kDeadline, [&] { return entered_ >= count; });
  }
  std::vector<Attempt> attempts() {
    std::lock_guard lock(mutex_);
    return attempts_;
  }
  std::size_t batches() {
    std::lock_guard lock(mutex_);
    return entered_;
  }
  // Batches that were being published while another one was: none for one relay.
  int overlaps() {
    std::lock_guard lock(mutex_);
    return overlaps_;
  }

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override {
    {
      std::unique_lock lock(mutex_);
      ++entered_;
      if (++in_progress_ > 1) {
        ++overlaps_;
      }
      changed_.notify_all();
      changed_.wait(lock, [this] { return gate_open_; });
    }
    std::vector<PublishResult> results = inner_.publish_batch(batch);
    std::lock_guard lock(mutex_);
    --in_progress_;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      attempts_.push_back({.id = batch[i].envelope.message_id,
                           .tenant = batch[i].tenant,
                           .key = batch[i].ordering_key,
                           .confirmed = results[i].is_confirmed()});
    }
    return results;
  }

 private:
  Transport& inner_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool gate_open_ = true;
  std::size_t entered_ = 0;
  int in_progress_ = 0;
  int overlaps_ = 0;
  std::vector<Attempt> attempts_;
};

// Opens the gate when the scope ends, before the relay's thread (declared earlier) is
// joined, so that a failed assertion cannot leave that thread waiting at it.
class GateOpener {
 public:
  explicit GateOpener(WatchedTransport& transport) : transport_(transport) {}
  ~GateOpener() { transport_.open_gate(); }
  GateOpener(const GateOpener&) = delete;
  GateOpener& operator=(const GateOpener&) = delete;

 private:
  WatchedTransport& transport_;
};

// A transport that cannot work as configured.
class MisconfiguredTransport final : public Transport {
 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage>) override {
    throw ConfigurationError("misconfigured transport: no exchange named; pass ?exchange=...");
  }
};

class OutboxPipelineTest : public OutboxConformance {
 protected:
  // The ids a fresh claim at the current time gets: every due row no lease holds.
  Ids claimable() {
    Ids ids;
    for (const OutboxRecord& row : store_->claim("probe", clock_.now(), clock_.now() + 1s, 1000)) {
      ids.push_back(row.id);
    }
    return ids;
  }

  InProcessTransport channel_{1000};
};

TEST_P(OutboxPipelineTest, EachKeysMessagesArePublishedInOrderThroughPublishFailures) {
  constexpr int kPerKey = 8;
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"acme", "a"}, {"acme", "b"}, {"acme", "c"}, {"globex", "a"}};
  std::map<std::pair<std::string, std::string>, Ids> staged;
  std::size_t total = 0;
  for (int i = 0; i < kPerKey; ++i) {
    for (const auto& [tenant, key] : keys) {
      TenantScope scope{TenantId(tenant)};
      staged[{tenant, key}].push_back(stage({.event_type = "OrderChanged", .ordering_key = key}));
      ++total;
    }
    stage({.event_type = "OrderNoted"});  // no key: never held back
    ++total;
  }
  // Each attempt fails with probability 1/2, decided from the (random) message id: about
  // as many failures as messages, fewer than 5 of keyed ones once in a million runs.
  InProcessTransport failing(1000, {.publish_failure = 0.5, .seed = 7});
  WatchedTransport watched(failing);
  RelaySettings settings = test_settings();
  settings.batch_size = 3;  // a key's messages span many batches
  settings.max_attempts = 50;
  settings.backoff_base = 1ms;
  settings.backoff_cap = 4ms;
  const AdvancingClock relay_clock(clock_);
  Relay relay(*store_, watched, RelayOptions(settings), relay_clock);

  {
    std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
    const auto deadline = std::chrono::steady_clock::now() + kDeadline;
    while (relay.stats().published < total && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(1ms);  // polling a condition with a deadline
    }
  }  // stop requested, relay joined

  std::map<std::pair<std::string, std::string>, std::size_t> confirmed;
  std::size_t failures = 0;
  std::size_t keyed_failures = 0;
  for (const WatchedTransport::Attempt& attempt : watched.attempts()) {
    failures += attempt.confirmed ? 0 : 1;
    if (!attempt.key) {
      continue;
    }
    keyed_failures += attempt.confirmed ? 0 : 1;
    const auto key = std::make_pair(attempt.tenant, *attempt.key);
    std::size_t& done = confirmed[key];
    ASSERT_LT(done, staged[key].size()) << attempt.id << " published after its key was done";
    EXPECT_EQ(attempt.id, staged[key][done])
        << "a message of " << key.first << "/" << key.second
        << " was published while an earlier one of its key was not confirmed";
    done += attempt.confirmed ? 1 : 0;
  }
  for (const auto& [key, ids] : staged) {
    EXPECT_EQ(confirmed[key], ids.size()) << key.first << "/" << key.second;
  }
  EXPECT_GE(keyed_failures, 5U) << "the transport must fail publishes for this test to mean much";
  EXPECT_EQ(watched.overlaps(), 0) << "one relay publishes one batch at a time";
  const RelayStats stats = relay.stats();
  EXPECT_EQ(stats.published, total);
  EXPECT_EQ(stats.retried, failures);
  EXPECT_EQ(stats.parked, 0U);
  const auto rows = store_->read_feed(0, 1000);
  EXPECT_EQ(rows.size(), total);
  for (const OutboxRecord& row : rows) {
    EXPECT_EQ(row.status, OutboxStatus::kDone) << row.id;
  }
  EXPECT_EQ(drain(failing).size(), total);  // each confirmed exactly once
}

TEST_P(OutboxPipelineTest, StopRecordsTheBatchesItHoldsAndLeavesNoRowLeased) {
  const Ids ids = stage_orders(40);
  ClaimWatchingStore watched_store(*store_);
  WatchedTransport watched(channel_);
  watched.close_gate();
  Relay relay(watched_store, watched, RelayOptions(test_settings()), clock_);  // batches of 10

  std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
  {
    GateOpener opener(watched);
    ASSERT_TRUE(watched.wait_for_batches(1));
    // The second batch is claimed while the first is being published: the pipeline.
    ASSERT_TRUE(watched_store.wait_for_claims(2));
    relaying.request_stop();
  }
  relaying.join();

  EXPECT_EQ(watched.batches(), 2U) << "the claimed second batch is published before returning";
  EXPECT_EQ(watched_store.claims().size(), 2U) << "nothing is claimed after the stop";
  EXPECT_EQ(relay.stats().published, 20U);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const OutboxRecord row = store_->find(ids[i]).value();
    EXPECT_EQ(row.status, i < 20 ? OutboxStatus::kDone : OutboxStatus::kPending) << i;
    EXPECT_EQ(row.attempts, 0) << i;
  }
  EXPECT_EQ(claimable(), Ids(ids.begin() + 20, ids.end())) << "no row is left leased";
  EXPECT_EQ(drain(channel_), Ids(ids.begin(), ids.begin() + 20));
}

TEST_P(OutboxPipelineTest, ABatchWhoseLeaseEndedWhileWaitingIsNotPublished) {
  const Ids ids = stage_orders(20);
  ClaimWatchingStore watched_store(*store_);
  WatchedTransport watched(channel_);
  watched.close_gate();
  const RelaySettings settings = test_settings();
  Relay relay(watched_store, watched, RelayOptions(settings), clock_);

  RelayPass pass;
  std::jthread draining([&relay, &pass] { pass = relay.drain(20); });
  {
    GateOpener opener(watched);
    ASSERT_TRUE(watched.wait_for_batches(1));
    ASSERT_TRUE(watched_store.wait_for_claims(2));
    clock_.advance(settings.lease);  // the first publish outlasts the second batch's lease
  }
  draining.join();

  EXPECT_EQ(pass.claimed, 20U);
  EXPECT_EQ(pass.batches, 1U);
  EXPECT_EQ(pass.expired_unpublished, 10U);
  Ids published;
  for (const WatchedTransport::Attempt& attempt : watched.attempts()) {
    published.push_back(attempt.id);
  }
  EXPECT_EQ(published, Ids(ids.begin(), ids.begin() + 10));
  for (std::size_t i = 10; i < ids.size(); ++i) {
    const OutboxRecord row = store_->find(ids[i]).value();
    EXPECT_EQ(row.status, OutboxStatus::kPending) << i;
    EXPECT_EQ(row.attempts, 0) << i;
  }
  const Ids again = claimable();  // the second batch is claimable at once
  const std::set<std::string> claimable_now(again.begin(), again.end());
  for (std::size_t i = 10; i < ids.size(); ++i) {
    EXPECT_TRUE(claimable_now.contains(ids[i])) << i;
  }
}

TEST_P(OutboxPipelineTest, DrainPublishesUpToItsLimitInSequenceOrder) {
  const Ids ids = stage_orders(25);
  Relay relay(*store_, channel_, RelayOptions(test_settings()), clock_);  // batches of 10

  const RelayPass first = relay.drain(12);
  EXPECT_EQ(first.claimed, 12U);
  EXPECT_EQ(first.published, 12U);
  EXPECT_EQ(first.batches, 2U);  // 10 + 2
  const RelayPass rest = relay.drain();
  EXPECT_EQ(rest.claimed, 13U);
  EXPECT_EQ(rest.published, 13U);
  EXPECT_EQ(rest.batches, 2U);  // 10 + 3, then a claim that finds nothing
  const RelayPass none = relay.drain();
  EXPECT_EQ(none.claimed, 0U);
  EXPECT_EQ(none.batches, 0U);
  EXPECT_EQ(relay.stats().published, 25U);
  EXPECT_EQ(drain(channel_), ids);  // one relay, no faults: sequence order
}

// Without a wake signal (the watcher hears none), an idle relay waits poll_interval
// after its first empty claim, twice that after the next, up to max_poll_interval.
TEST_P(OutboxPipelineTest, AnIdleRelayWaitsLongerAfterEachEmptyClaimUpToTheLongestWait) {
  ClaimWatchingStore watched_store(*store_);
  RelaySettings settings = test_settings();
  settings.poll_interval = 20ms;
  settings.max_poll_interval = 80ms;
  Relay relay(watched_store, channel_, RelayOptions(settings), clock_);

  std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
  ASSERT_TRUE(watched_store.wait_for_claims(6));
  relaying.request_stop();
  relaying.join();

  const auto claims = watched_store.claims();
  const std::vector<std::chrono::microseconds> waits{20ms, 40ms, 80ms, 80ms, 80ms};
  for (std::size_t i = 1; i < claims.size() && i <= waits.size(); ++i) {
    EXPECT_EQ(claims[i].second, 0U);
    EXPECT_GE(claims[i].first - claims[i - 1].first, waits[i - 1]) << "claim " << i;
  }
}

TEST_P(OutboxPipelineTest, ATransportThatCannotWorkEndsTheRunAndMarksNothing) {
  const Ids ids = stage_orders(3);
  MisconfiguredTransport misconfigured;
  Relay relay(*store_, misconfigured, RelayOptions(test_settings()), clock_);

  EXPECT_THROW(relay.run(std::stop_token{}), ConfigurationError);
  clock_.advance(test_settings().lease);  // the rows are claimable again
  EXPECT_THROW(relay.drain(), ConfigurationError);
  for (const std::string& id : ids) {
    const OutboxRecord row = store_->find(id).value();
    EXPECT_EQ(row.status, OutboxStatus::kPending);
    EXPECT_EQ(row.attempts, 0);
  }
  EXPECT_EQ(relay.stats().published, 0U);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxPipelineTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
