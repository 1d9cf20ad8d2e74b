// dispatch_batch on PostgreSQL sends a batch in a few flights: one pre-check read of the
// batch's dedup keys (with BEGIN), then every message's segment (SAVEPOINT, dedup
// insert, its handler's sent statements, RELEASE) with the COMMIT. A statement of
// message k that fails in a flight fails message k alone: the store rolls back to its
// savepoint and sends again what the server skipped after it, so later handlers run
// exactly once. A message committed by another connection after the pre-check is a
// duplicate.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/postgres_round_trips.h"
#include "providers/postgres/tests/postgres_order_envelope.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::detail::batch_flight_test {
namespace {

using integration_orders::order;
using integration_orders::Order;

// m-<i> carrying order o-<i>, for i in [from, to); order ids in `bad` are refused by
// the table's check constraint when the handler's insert reaches the server.
std::vector<Envelope> orders_batch(int from, int to) {
  std::vector<Envelope> batch;
  for (int i = from; i < to; ++i) {
    batch.push_back(order("m-" + std::to_string(i), "o-" + std::to_string(i)));
  }
  return batch;
}

class PostgresBatchFlight : public ::testing::Test {
 protected:
  PostgresBatchFlight() {
    auto unit = store_->begin();
    auto& tx = dynamic_cast<Transaction&>(unit->handler_transaction());
    tx.exec("CREATE TABLE orders (id TEXT PRIMARY KEY CHECK (id <> 'bad'))");
    unit->commit();
  }

  // A dispatcher whose handler counts its runs per message, sends the order's insert
  // (no result read), then runs `after` if set.
  InboxDispatcher dispatcher(std::function<void(const Envelope&, Transaction&)> after = {}) {
    HandlerRegistry handlers;
    handlers.on<Order>("order",
                       [this, after](const Order& o, Transaction& tx, HandlerContext& ctx) {
                         runs_.push_back(ctx.envelope().message_id);
                         tx.send("INSERT INTO orders (id) VALUES ($1)", {o.id});
                         if (after) {
                           after(ctx.envelope(), tx);
                         }
                       });
    return InboxDispatcher(*store_, InboxOptions("billing"), std::move(handlers));
  }

  std::vector<std::string> orders() { return integration_orders::stored_order_ids(*store_); }

  bool recorded(const std::string& message_id) {
    return store_->is_recorded({"__untenanted__", "billing", message_id});
  }

  test_support::PostgresSchema schema_;
  std::unique_ptr<InboxStore> store_ = open_inbox_store(schema_.url());
  std::vector<std::string> runs_;
};

std::string what(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST_F(PostgresBatchFlight, AHundredMessagesCostTwoRoundTrips) {
  const InboxDispatcher inbox = dispatcher();
  ASSERT_EQ(inbox.dispatch_batch(orders_batch(0, 100)).size(), 100u);  // prepares
  const std::uint64_t before = round_trips();
  const auto results = inbox.dispatch_batch(orders_batch(100, 200));
  EXPECT_EQ(round_trips() - before, 2u)
      << "BEGIN with the pre-check; every segment with the COMMIT";
  ASSERT_EQ(results.size(), 100u);
  for (const auto& result : results) {
    EXPECT_EQ(result.outcome, DispatchOutcome::kProcessed) << result.message_id;
  }
  EXPECT_EQ(orders().size(), 200u);

  // Half of them again: the pre-check skips the known ones without their handlers.
  auto mixed = orders_batch(150, 250);
  runs_.clear();
  const std::uint64_t mixed_before = round_trips();
  const auto again = inbox.dispatch_batch(mixed);
  EXPECT_EQ(round_trips() - mixed_before, 2u);
  EXPECT_EQ(runs_.size(), 50u) << "known duplicates run no handler";
  for (std::size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(again[i].outcome,
              i < 50 ? DispatchOutcome::kSkippedDuplicate : DispatchOutcome::kProcessed);
  }
  EXPECT_EQ(orders().size(), 250u);
}

TEST_F(PostgresBatchFlight, AWriteThatFailsMidFlightFailsItsMessageAlone) {
  const InboxDispatcher inbox = dispatcher();
  ASSERT_EQ(inbox.dispatch_batch(orders_batch(0, 3)).size(), 3u);  // prepares
  auto batch = orders_batch(3, 13);
  batch[4] = order("m-7", "bad");
  runs_.clear();
  const std::uint64_t before = round_trips();
  const auto results = inbox.dispatch_batch(batch);
  EXPECT_EQ(round_trips() - before, 3u)
      << "the pre-check; the flight that failed at m-7; m-7 rolled back and the rest again";
  ASSERT_EQ(results.size(), 10u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].message_id, batch[i].message_id);
    if (i == 4) {
      ASSERT_FALSE(results[i].ok());
      EXPECT_NE(what(results[i].error).find("orders_id_check"), std::string::npos)
          << what(results[i].error);
    } else {
      EXPECT_EQ(results[i].outcome, DispatchOutcome::kProcessed) << results[i].message_id;
    }
  }
  std::vector<std::string> ran;
  for (const auto& envelope : batch) {
    ran.push_back(envelope.message_id);
  }
  EXPECT_EQ(runs_, ran) << "every handler ran exactly once, the later ones too";
  EXPECT_EQ(orders().size(), 12u);
  EXPECT_FALSE(recorded("m-7"));
  EXPECT_TRUE(recorded("m-8"));
  EXPECT_TRUE(recorded("m-12"));
}

TEST_F(PostgresBatchFlight, AHandlersReadFindsAnEarlierFailureAndTheBatchGoesOn) {
  // m-4's handler reads the orders so far: its flight carries m-2's failing insert.
  std::vector<std::string> seen;
  const InboxDispatcher inbox = dispatcher([&](const Envelope& e, Transaction& tx) {
    if (e.message_id == "m-4") {
      for (const Row& row : tx.query("SELECT id FROM orders ORDER BY id")) {
        seen.push_back(std::get<std::string>(row.at(0)));
      }
    }
  });
  auto batch = orders_batch(0, 6);
  batch[2] = order("m-2", "bad");
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 6u);
  EXPECT_FALSE(results[2].ok());
  for (std::size_t i : {0u, 1u, 3u, 4u, 5u}) {
    EXPECT_EQ(results[i].outcome, DispatchOutcome::kProcessed) << i;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"o-0", "o-1", "o-3", "o-4"}))
      << "the read sees the segments sent again after the failed one, its own write too";
  EXPECT_EQ(runs_, (std::vector<std::string>{"m-0", "m-1", "m-2", "m-3", "m-4", "m-5"}));
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1", "o-3", "o-4", "o-5"}));
}

TEST_F(PostgresBatchFlight, StopAfterAMidFlightFailureCommitsOnlyTheMessagesBefore) {
  const InboxDispatcher inbox = dispatcher();
  auto batch = orders_batch(0, 6);
  batch[2] = order("m-2", "bad");
  const auto results = inbox.dispatch_batch(batch, AfterBatchFailure::kStop);
  ASSERT_EQ(results.size(), 3u) << "the results end at the failed message";
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  ASSERT_FALSE(results[2].ok());
  EXPECT_EQ(results[2].message_id, "m-2");
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1"}));
  EXPECT_FALSE(recorded("m-2"));
  EXPECT_FALSE(recorded("m-3"));
  EXPECT_FALSE(recorded("m-5"));
  EXPECT_EQ(runs_.size(), 6u) << "held-back handlers ran before the failure was known; "
                                 "nothing they wrote committed";
}

TEST_F(PostgresBatchFlight, StopFoundByALaterHandlersReadEndsTheBatchThere) {
  const InboxDispatcher inbox = dispatcher([](const Envelope& e, Transaction& tx) {
    if (e.message_id == "m-4") {
      tx.query("SELECT 1");
      tx.send("INSERT INTO orders (id) VALUES ('after-the-read')");
    }
  });
  auto batch = orders_batch(0, 6);
  batch[2] = order("m-2", "bad");
  const auto results = inbox.dispatch_batch(batch, AfterBatchFailure::kStop);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_FALSE(results[2].ok());
  EXPECT_EQ(runs_, (std::vector<std::string>{"m-0", "m-1", "m-2", "m-3", "m-4"}))
      << "no handler runs after the read that found the failure";
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1"}))
      << "what m-4's handler wrote after its read did not commit";
  EXPECT_FALSE(recorded("m-3"));
  EXPECT_FALSE(recorded("m-4"));
}

TEST_F(PostgresBatchFlight, AMessageCommittedElsewhereAfterThePreCheckIsADuplicate) {
  // While the batch runs m-0's handler (after its pre-check, before its flight), another
  // connection dispatches m-2 and commits; joining that thread is the barrier.
  std::atomic<int> other_runs{0};
  HandlerRegistry other_handlers;
  other_handlers.on<Order>("order", [&](const Order& o, Transaction& tx, HandlerContext&) {
    ++other_runs;
    tx.exec("INSERT INTO orders (id) VALUES ($1)", {o.id + "-elsewhere"});
  });
  const InboxDispatcher other(*store_, InboxOptions("billing"), std::move(other_handlers));
  bool raced = false;
  const InboxDispatcher inbox = dispatcher([&](const Envelope& e, Transaction&) {
    if (e.message_id == "m-0" && !raced) {
      raced = true;
      std::thread elsewhere(
          [&] { EXPECT_EQ(other.dispatch(order("m-2", "o-2")), DispatchOutcome::kProcessed); });
      elsewhere.join();
    }
  });
  const auto results = inbox.dispatch_batch(orders_batch(0, 4));
  ASSERT_TRUE(raced);
  EXPECT_EQ(other_runs.load(), 1);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kSkippedDuplicate) << what(results[2].error);
  EXPECT_EQ(results[3].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1", "o-2-elsewhere", "o-3"}))
      << "the batch's m-2 wrote nothing";
}

TEST_F(PostgresBatchFlight, ARepeatOfAStandingMessageIsADuplicateWithoutARoundTrip) {
  const InboxDispatcher inbox = dispatcher();
  ASSERT_EQ(inbox.dispatch_batch(orders_batch(0, 3)).size(), 3u);  // prepares
  // Every message of 10..29 twice, each redelivery five messages after its first.
  std::vector<Envelope> batch;
  for (int i = 10; i < 30; ++i) {
    batch.push_back(order("m-" + std::to_string(i), "o-" + std::to_string(i)));
    if (i >= 15) {
      batch.push_back(order("m-" + std::to_string(i - 5), "o-" + std::to_string(i - 5)));
    }
  }
  for (int i = 25; i < 30; ++i) {
    batch.push_back(order("m-" + std::to_string(i), "o-" + std::to_string(i)));
  }
  runs_.clear();
  const std::uint64_t before = round_trips();
  const auto results = inbox.dispatch_batch(batch);
  EXPECT_EQ(round_trips() - before, 2u) << "the pre-check and the commit: no repeat asks";
  ASSERT_EQ(results.size(), 40u);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].outcome, seen.insert(batch[i].message_id).second
                                      ? DispatchOutcome::kProcessed
                                      : DispatchOutcome::kSkippedDuplicate)
        << i << " " << batch[i].message_id;
  }
  EXPECT_EQ(runs_.size(), 20u) << "each message's handlers ran once";
  EXPECT_EQ(orders().size(), 23u);
}

TEST_F(PostgresBatchFlight, ARepeatFollowsItsFirstDeliveryWhoseWriteFailsInTheFlight) {
  const InboxDispatcher inbox = dispatcher();
  ASSERT_EQ(inbox.dispatch_batch(orders_batch(0, 3)).size(), 3u);  // prepares
  const std::vector<Envelope> batch{order("a", "bad"), order("b", "o-b"), order("a", "bad"),
                                    order("b", "o-b")};
  runs_.clear();
  const std::uint64_t before = round_trips();
  const auto results = inbox.dispatch_batch(batch);
  EXPECT_EQ(round_trips() - before, 3u)
      << "the pre-check; the flight that failed at a; the rest again";
  ASSERT_EQ(results.size(), 4u);
  ASSERT_FALSE(results[0].ok());
  EXPECT_NE(what(results[0].error).find("orders_id_check"), std::string::npos);
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed);
  ASSERT_FALSE(results[2].ok()) << "the repeat is not a duplicate of a write that failed";
  EXPECT_NE(what(results[2].error).find("orders_id_check"), std::string::npos);
  EXPECT_EQ(results[3].outcome, DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs_, (std::vector<std::string>{"a", "b"})) << "no repeat ran its handlers";
  EXPECT_FALSE(recorded("a"));
  EXPECT_TRUE(recorded("b"));

  // Delivered again, a runs (and fails again: its order is still refused) and stops the
  // batch there when asked to.
  const auto stopped = inbox.dispatch_batch(
      std::vector<Envelope>{order("a", "bad"), order("c", "o-c"), order("a", "bad")},
      AfterBatchFailure::kStop);
  ASSERT_EQ(stopped.size(), 1u);
  EXPECT_FALSE(stopped[0].ok());
  EXPECT_FALSE(recorded("c"));
}

TEST_F(PostgresBatchFlight, ARepeatOfAMessageWhoseHandlerThrewIsAskedAndRuns) {
  int failures_left = 1;
  const InboxDispatcher inbox =
      dispatcher([&failures_left](const Envelope& envelope, Transaction&) {
        if (envelope.message_id == "a" && failures_left-- > 0) {
          throw std::runtime_error("a fails once");
        }
      });
  const auto results =
      inbox.dispatch_batch(std::vector<Envelope>{order("a", "o-a"), order("a", "o-a")});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_FALSE(results[0].ok());
  EXPECT_EQ(results[1].outcome, DispatchOutcome::kProcessed) << "a is free once the first failed";
  EXPECT_EQ(runs_, (std::vector<std::string>{"a", "a"}));
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-a"}));
}

}  // namespace
}  // namespace docket::postgres::detail::batch_flight_test
