// A caller's time far in the future (9999-12-31T23:59:59.999999Z, past 2^53 microseconds)
// kept exactly on the Cosmos DB items that hold it: the transactional inbox's dedup item
// and the outbox's message, whose occurredAt a JSON number would round (the service and
// the test server read numbers as doubles). The event store's is the event sourcing
// suite's (load_values_test.cc).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/cosmos/transaction.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_exact_time.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

struct FarPlaced {};
void from_json(const nlohmann::json& /*j*/, FarPlaced& /*placed*/) {}

// 9999-12-31T23:59:59.999999Z, which a double rounds to ...800000000.
constexpr std::int64_t kFarMicros = 253'402'300'799'999'999;
const Timestamp kFarTime = kit::from_micros(kFarMicros);

// The microseconds a stored occurredAt holds, read as text or, were it a number, as the
// number (compared as counts, so a failure prints them).
std::optional<std::int64_t> stored_micros(const nlohmann::json& value) {
  if (value.is_number_integer()) {
    return value.get<std::int64_t>();
  }
  if (value.is_number_float()) {
    return static_cast<std::int64_t>(value.get<double>());
  }
  const std::optional<Timestamp> time = exact_time_of(value);
  return time ? std::optional<std::int64_t>(kit::to_micros(*time)) : std::nullopt;
}

class CosmosFarTimeTest : public ::testing::Test {
 protected:
  // The items of the inbox container that are docket's of kind `table`.
  std::vector<nlohmann::json> items_of(std::string_view table) const {
    return query_items(client_,
                       {.container = client_.url().container(kInboxContainerBase),
                        .sql = "SELECT * FROM c WHERE c.docketTable = @table",
                        .parameters = {{{"name", "@table"}, {"value", table}}}},
                       100);
  }

  test_support::CosmosDatabase database_;
  Client client_{parse_store_url(database_.url())};
};

TEST_F(CosmosFarTimeTest, TheInboxKeepsAMessagesFarOccurredAtExactly) {
  const auto store = docket::open_inbox_store(database_.url(), SystemClock::instance());
  HandlerRegistry handlers;
  handlers.on<FarPlaced>("placed", [](const FarPlaced&, cosmos::Transaction&, HandlerContext&) {});
  const InboxDispatcher inbox(*store, InboxOptions("orders"), std::move(handlers));
  Envelope envelope;
  envelope.message_id = "m-far";
  envelope.event_type = "placed";
  envelope.payload = "{}";
  envelope.occurred_at = kFarTime;
  ASSERT_EQ(inbox.dispatch(envelope), DispatchOutcome::kProcessed);
  const std::vector<nlohmann::json> dedup = items_of(kInboxMessagesTable);
  ASSERT_EQ(dedup.size(), 1u);
  EXPECT_EQ(stored_micros(dedup.front()["occurredAt"]), kFarMicros) << dedup.front().dump();
}

TEST_F(CosmosFarTimeTest, TheOutboxKeepsAMessagesFarOccurredAtExactly) {
  const auto store = docket::open_outbox_store(database_.url(), SystemClock::instance());
  Outbox outbox(*store);
  auto unit = store->begin();
  const Uuid id =
      outbox.stage(unit->handler_transaction(),
                   {.event_type = "invoice-due", .payload = "{}", .occurred_at = kFarTime});
  unit->commit();
  const std::optional<OutboxRecord> found = store->find(id.to_string());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(kit::to_micros(found->occurred_at), kFarMicros);
}

}  // namespace
}  // namespace docket::cosmos::detail
