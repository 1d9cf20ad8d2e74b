// The Cosmos DB transactional inbox's own cases against the test server, beside its
// conformance suite: a handler's items and the dedup item are one batch in the tenant's
// partition; a handler that names another partition is refused, pointing at the claim
// inbox, with nothing written; a stale etag fails the whole batch.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/cosmos/transaction.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;

struct Placed {
  std::string order;
};
void from_json(const nlohmann::json& j, Placed& placed) {
  j.at("order").get_to(placed.order);
}

Envelope placed(std::string message_id, std::string order) {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = "placed";
  envelope.payload = nlohmann::json{{"order", std::move(order)}}.dump();
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

class CosmosInboxTest : public ::testing::Test {
 protected:
  CosmosInboxTest()
      : store_(docket::open_inbox_store(database_.url(), SystemClock::instance())),
        client_(parse_store_url(database_.url())),
        container_(client_.url().container(kInboxContainerBase)) {}

  InboxDispatcher dispatcher(
      std::function<void(const Placed&, cosmos::Transaction&, HandlerContext&)> handler) {
    HandlerRegistry handlers;
    handlers.on<Placed>("placed", std::move(handler));
    return InboxDispatcher(*store_, InboxOptions("orders"), std::move(handlers));
  }
  std::optional<ReadItem> item(std::string_view id, std::string_view pk) const {
    return read_item(client_, {.container = container_, .id = id, .partition_key = pk});
  }
  bool recorded(std::string_view tenant, std::string_view message_id) const {
    return store_->is_recorded(DedupKey{std::string(tenant), "orders", std::string(message_id)});
  }

  test_support::CosmosDatabase database_;
  std::unique_ptr<InboxStore> store_;
  Client client_;
  std::string container_;
};

TEST_F(CosmosInboxTest, TheHandlersItemsAndTheDedupItemCommitInTheTenantsPartition) {
  const auto inbox = dispatcher([](const Placed& p, cosmos::Transaction& tx, HandlerContext&) {
    EXPECT_EQ(tx.partition(), "acme");
    tx.create("order:" + p.order, {{"state", "placed"}});
  });
  const TenantScope acme(TenantId("acme"));
  EXPECT_EQ(inbox.dispatch(placed("m-1", "o-1")), DispatchOutcome::kProcessed);
  const std::optional<ReadItem> order = item("order:o-1", "acme");
  ASSERT_TRUE(order.has_value());
  EXPECT_EQ(order->body["pk"], "acme");
  EXPECT_EQ(order->body["state"], "placed");
  EXPECT_TRUE(recorded("acme", "m-1"));
  EXPECT_EQ(inbox.dispatch(placed("m-1", "o-1")), DispatchOutcome::kSkippedDuplicate);
}

TEST_F(CosmosInboxTest, AHandlerNamingAnotherPartitionIsRefusedAndNothingIsWritten) {
  const auto inbox = dispatcher([](const Placed& p, cosmos::Transaction& tx, HandlerContext&) {
    tx.create("order:" + p.order, {{"state", "placed"}});
    tx.create("audit:" + p.order, {{"pk", "audit"}});
  });
  const TenantScope acme(TenantId("acme"));
  try {
    inbox.dispatch(placed("m-1", "o-1"));
    FAIL() << "a write to another partition was accepted";
  } catch (const InvalidInputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("claim inbox"));
    EXPECT_THAT(error.what(), HasSubstr("audit:o-1"));
  }
  EXPECT_FALSE(item("order:o-1", "acme").has_value());
  EXPECT_FALSE(recorded("acme", "m-1"));
}

TEST_F(CosmosInboxTest, AStaleEtagFailsTheWholeBatch) {
  const TenantScope acme(TenantId("acme"));
  const auto seed = dispatcher([](const Placed&, cosmos::Transaction& tx, HandlerContext&) {
    tx.create("stock", {{"qty", 10}});
  });
  ASSERT_EQ(seed.dispatch(placed("seed", "")), DispatchOutcome::kProcessed);
  const auto inbox = dispatcher([this](const Placed& p, cosmos::Transaction& tx, HandlerContext&) {
    const std::optional<ItemRead> stock = tx.read("stock");
    ASSERT_TRUE(stock.has_value());
    // Another writer changes the stock between this read and the commit.
    upsert_item(client_, {.container = container_, .id = "stock", .partition_key = "acme"},
                {{"id", "stock"}, {"pk", "acme"}, {"qty", 7}});
    tx.create("order:" + p.order, {{"state", "placed"}});
    nlohmann::json left = stock->item;
    left["qty"] = 9;
    tx.replace("stock", left, stock->etag);
  });
  EXPECT_THROW(inbox.dispatch(placed("m-2", "o-2")), ConditionFailedError);
  EXPECT_EQ(item("stock", "acme")->body["qty"], 7);
  EXPECT_FALSE(item("order:o-2", "acme").has_value());
  EXPECT_FALSE(recorded("acme", "m-2"));
}

TEST_F(CosmosInboxTest, ABadIdIsRefusedBeforeAnythingIsSent) {
  const auto inbox = dispatcher([](const Placed&, cosmos::Transaction& tx, HandlerContext&) {
    tx.create("a/b", nlohmann::json::object());
  });
  const TenantScope acme(TenantId("acme"));
  EXPECT_THROW(inbox.dispatch(placed("m-3", "")), InvalidInputError);
  EXPECT_FALSE(recorded("acme", "m-3"));
}

}  // namespace
}  // namespace docket::cosmos::detail
