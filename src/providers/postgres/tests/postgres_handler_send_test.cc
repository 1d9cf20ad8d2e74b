// docket::postgres::Transaction::send: a handler's statement that travels with the
// unit of work's next statement or its COMMIT. A dispatch whose handler only sends
// costs two round trips (BEGIN with the dedup insert, the handler's statements with
// COMMIT); a duplicate runs no handler; a sent statement's failure fails the dispatch
// (a unique violation as the handler's own) and, in a batch, its message alone.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/outbox/outbox.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/postgres_round_trips.h"
#include "providers/postgres/tests/postgres_order_envelope.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::detail::handler_send_test {
namespace {

using integration_orders::order;
using integration_orders::Order;

class PostgresHandlerSend : public ::testing::Test {
 protected:
  PostgresHandlerSend() {
    auto unit = store_->begin();
    auto& tx = dynamic_cast<Transaction&>(unit->handler_transaction());
    tx.exec("CREATE TABLE orders (id TEXT PRIMARY KEY)");
    unit->commit();
  }

  // A dispatcher whose handler sends the order's insert, then runs `after` if set.
  InboxDispatcher dispatcher(std::function<void(Transaction&)> after = {},
                             DedupCheck dedup = DedupCheck::kBeforeHandlers) {
    HandlerRegistry handlers;
    handlers.on<Order>("order", [this, after](const Order& o, Transaction& tx, HandlerContext&) {
      ++runs_;
      tx.send("INSERT INTO orders (id) VALUES ($1)", {o.id});
      if (after) {
        after(tx);
      }
    });
    return InboxDispatcher(*store_, InboxOptions("billing", dedup), std::move(handlers));
  }

  std::vector<std::string> orders() { return integration_orders::stored_order_ids(*store_); }

  test_support::PostgresSchema schema_;
  std::unique_ptr<InboxStore> store_ = open_inbox_store(schema_.url());
  int runs_ = 0;
};

TEST_F(PostgresHandlerSend, ADispatchThatOnlySendsCostsTwoRoundTrips) {
  const InboxDispatcher inbox = dispatcher();
  ASSERT_EQ(inbox.dispatch(order("m-0", "o-0")), DispatchOutcome::kProcessed);  // prepares
  const std::uint64_t before = round_trips();
  EXPECT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(round_trips() - before, 2u);
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1"}));

  const std::uint64_t duplicate_before = round_trips();
  EXPECT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(round_trips() - duplicate_before, 2u) << "BEGIN with the dedup insert, ROLLBACK";
  EXPECT_EQ(runs_, 2) << "a duplicate runs no handler";
}

TEST_F(PostgresHandlerSend, CheckingDedupAtCommitMakesADispatchOneRoundTrip) {
  const InboxDispatcher inbox = dispatcher({}, DedupCheck::kAtCommit);
  ASSERT_EQ(inbox.dispatch(order("m-0", "o-0")), DispatchOutcome::kProcessed);  // prepares
  const std::uint64_t before = round_trips();
  EXPECT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(round_trips() - before, 1u) << "BEGIN, dedup insert, the order and COMMIT";
  EXPECT_TRUE(store_->is_recorded({"__untenanted__", "billing", "m-1"}));

  // A duplicate runs the handler, but nothing it wrote commits.
  EXPECT_EQ(inbox.dispatch(order("m-1", "o-9")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs_, 3);
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1"}));
  EXPECT_EQ(inbox.dispatch(order("m-2", "o-2")), DispatchOutcome::kProcessed)
      << "the connection is usable after the failed flight";
}

TEST_F(PostgresHandlerSend, AtCommitTheHandlersOwnViolationStillPropagates) {
  const InboxDispatcher inbox = dispatcher({}, DedupCheck::kAtCommit);
  ASSERT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_THROW(inbox.dispatch(order("m-2", "o-1")), UniqueViolationError);
  EXPECT_FALSE(store_->is_recorded({"__untenanted__", "billing", "m-2"}));
}

TEST_F(PostgresHandlerSend, AtCommitAHandlersQueryMeetsTheDuplicateFirst) {
  const InboxDispatcher inbox =
      dispatcher([](Transaction& tx) { tx.query("SELECT 1"); }, DedupCheck::kAtCommit);
  ASSERT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-1"}));
}

TEST_F(PostgresHandlerSend, StagingAnOutboxMessageAddsNoRoundTrip) {
  const std::unique_ptr<OutboxStore> outbox_store = docket::open_outbox_store(schema_.url());
  const Outbox outbox(*outbox_store);
  const auto produce = [&](std::string id) {
    auto unit = outbox_store->begin();
    auto& tx = dynamic_cast<Transaction&>(unit->handler_transaction());
    tx.send("INSERT INTO orders (id) VALUES ($1)", {std::move(id)});
    outbox.stage(tx, {.event_type = "order-placed", .payload = "{}"});
    unit->commit();
  };
  produce("o-0");  // prepares
  const std::uint64_t before = round_trips();
  produce("o-1");
  EXPECT_EQ(round_trips() - before, 1u) << "BEGIN, the order, the message and COMMIT: one flight";
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-0", "o-1"}));
  EXPECT_EQ(outbox_store->read_feed(0, 10).size(), 2u);
}

TEST_F(PostgresHandlerSend, ASentUniqueViolationIsTheHandlersOwnAndNothingCommits) {
  const InboxDispatcher inbox = dispatcher();
  ASSERT_EQ(inbox.dispatch(order("m-1", "o-1")), DispatchOutcome::kProcessed);
  EXPECT_THROW(inbox.dispatch(order("m-2", "o-1")), UniqueViolationError);
  EXPECT_FALSE(store_->is_recorded({"__untenanted__", "billing", "m-2"}))
      << "the dedup row went with the rollback, so a redelivery runs again";
  EXPECT_EQ(inbox.dispatch(order("m-3", "o-3")), DispatchOutcome::kProcessed)
      << "the connection is usable after the failed flight";
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-1", "o-3"}));
}

TEST_F(PostgresHandlerSend, InABatchASentFailureFailsItsMessageAlone) {
  const InboxDispatcher inbox = dispatcher();
  const std::vector<Envelope> batch{order("m-1", "o-1"), order("m-2", "o-1"), order("m-3", "o-3")};
  const std::vector<BatchItemResult> results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, DispatchOutcome::kProcessed);
  EXPECT_FALSE(results[1].outcome.has_value());
  EXPECT_TRUE(results[1].error != nullptr);
  EXPECT_THROW(std::rethrow_exception(results[1].error), UniqueViolationError);
  EXPECT_EQ(results[2].outcome, DispatchOutcome::kProcessed);
  EXPECT_EQ(orders(), (std::vector<std::string>{"o-1", "o-3"}));
  EXPECT_FALSE(store_->is_recorded({"__untenanted__", "billing", "m-2"}));
}

TEST_F(PostgresHandlerSend, TheHandlersNextStatementReportsASentFailure) {
  const InboxDispatcher inbox = dispatcher([](Transaction& tx) {
    tx.send("INSERT INTO no_such_table (id) VALUES ('x')");
    tx.query("SELECT 1");
  });
  try {
    inbox.dispatch(order("m-1", "o-1"));
    FAIL() << "a failed sent statement went unreported";
  } catch (const InfrastructureError& error) {
    EXPECT_NE(std::string(error.what()).find("no_such_table"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(orders().empty());
}

}  // namespace
}  // namespace docket::postgres::detail::handler_send_test
