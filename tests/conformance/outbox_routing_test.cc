// Routing: a staged message's destination, ordering key and headers come back exactly as
// staged from claim(), the parked listing and the feed; an empty destination is stored as
// the event type; bad routing input is refused by name with nothing staged; a row
// written without a route (as before routing existed) takes the default route.
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

class OutboxRoutingTest : public OutboxConformance {
 protected:
  // A route that exercises the header encoding: quotes, backslashes, control characters,
  // non-ASCII text, a token name with symbols, an empty value.
  static OutboxMessage routed() {
    return {.event_type = "OrderPlaced",
            .payload = "{}",
            .destination = "orders.eu/placed",
            .ordering_key = "order-7 \xC3\xA9",
            .headers = {{"x-b", "2"},
                        {"tenant-tier", "gold \"q\" \\ \n\t\x01 \xE2\x82\xAC"},
                        {"a!#$%&'*+-.^_`|~", ""}}};
  }

  static void expect_route(const OutboxRecord& record, const OutboxMessage& staged) {
    EXPECT_EQ(record.destination, staged.destination);
    EXPECT_EQ(record.ordering_key, staged.ordering_key);
    EXPECT_EQ(record.headers, staged.headers);
    EXPECT_EQ(destination_of(record), staged.destination);
  }

  void expect_refused(const OutboxMessage& message, const std::string& names) {
    {
      auto unit = store_->begin();  // may hold the only connection: ended before the read
      try {
        outbox_->stage(unit->handler_transaction(), message);
        ADD_FAILURE() << "staging must be refused: " << names;
      } catch (const InvalidInputError& e) {
        EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
      }
      unit->commit();
    }
    EXPECT_TRUE(store_->read_feed(0, 10).empty()) << names;
  }
};

TEST_P(OutboxRoutingTest, TheRouteComesBackFromClaimFeedFindAndTheParkedListing) {
  const OutboxMessage message = routed();
  const std::string id = stage(message);

  const auto feed = store_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 1U);
  expect_route(feed[0], message);
  expect_route(*store_->find(id), message);

  const auto claimed =
      store_->claim("relay", clock_.now(), clock_.now() + std::chrono::seconds(30), 10);
  ASSERT_EQ(claimed.size(), 1U);
  expect_route(claimed[0], message);

  ASSERT_TRUE(store_->fail(id, "relay", {.error = "broker said no", .park = true}));
  const auto parked = outbox_->parked();
  ASSERT_EQ(parked.size(), 1U);
  expect_route(parked[0], message);
}

TEST_P(OutboxRoutingTest, AnEmptyDestinationIsStoredAsTheEventType) {
  const std::string id = stage({.event_type = "OrderShipped"});
  const auto row = store_->find(id);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->destination, "OrderShipped");
  EXPECT_EQ(row->ordering_key, std::nullopt);
  EXPECT_TRUE(row->headers.empty());
}

TEST_P(OutboxRoutingTest, ARowWithoutARouteTakesTheDefaultRoute) {
  // What a row staged before routing existed holds: no destination, key or headers.
  OutboxRecord old_row{.id = Uuid::v7().to_string(),
                       .tenant = std::string(kUntenantedSentinel),
                       .event_type = "OrderPlaced",
                       .payload = "{}",
                       .occurred_at = clock_.now(),
                       .created_at = clock_.now(),
                       .next_attempt_at = clock_.now()};
  {
    auto unit = store_->begin();
    store_->insert(unit->handler_transaction(), old_row);
    unit->commit();
  }
  const auto claimed =
      store_->claim("relay", clock_.now(), clock_.now() + std::chrono::seconds(30), 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].destination, "");
  EXPECT_EQ(destination_of(claimed[0]), "OrderPlaced");
  EXPECT_EQ(claimed[0].ordering_key, std::nullopt);
  EXPECT_TRUE(claimed[0].headers.empty());
  EXPECT_TRUE(store_->complete(old_row.id, "relay", clock_.now()));
  EXPECT_EQ(store_->find(old_row.id)->status, OutboxStatus::kDone);
}

TEST_P(OutboxRoutingTest, BadRoutingInputIsRefusedByNameAndNothingIsStaged) {
  const auto with = [](auto change) {
    OutboxMessage message = routed();
    change(message);
    return message;
  };
  expect_refused(with([](auto& m) { m.destination = "a\xC3"; }), "destination is not valid UTF-8");
  expect_refused(with([](auto& m) { m.destination = std::string("a\0b", 3); }),
                 "destination contains a NUL");
  expect_refused(with([](auto& m) { m.destination = std::string(kMaxDestinationBytes + 1, 'd'); }),
                 "kMaxDestinationBytes");
  expect_refused(with([](auto& m) { m.ordering_key = ""; }), "ordering key is empty");
  expect_refused(with([](auto& m) { m.ordering_key = "\xED\xA0\x80"; }),
                 "ordering key is not valid UTF-8");
  expect_refused(with([](auto& m) { m.ordering_key = std::string(kMaxOrderingKeyBytes + 1, 'k'); }),
                 "kMaxOrderingKeyBytes");
  expect_refused(with([](auto& m) {
                   m.headers.push_back({"", "v"});
                 }),
                 "header 3 has an empty name");
  expect_refused(with([](auto& m) {
                   m.headers.push_back({"x-b", "again"});
                 }),
                 "header name 'x-b' appears twice");
  expect_refused(with([](auto& m) { m.headers.push_back({"has space", "v"}); }), "is not a token");
  // A transport's CloudEvents attributes: the header could cross no binding as itself.
  expect_refused(with([](auto& m) {
                   m.headers.push_back({"ce-id", "v"});
                 }),
                 "CloudEvents attribute prefix");
  expect_refused(with([](auto& m) {
                   m.headers.push_back({"CE_type", "v"});
                 }),
                 "CloudEvents attribute prefix");
  expect_refused(with([](auto& m) {
                   m.headers.push_back({"x", "\xFF"});
                 }),
                 "value of header 'x' is not valid UTF-8");
  expect_refused(with([](auto& m) {
                   m.headers.clear();
                   for (std::size_t i = 0; i <= kMaxHeaderCount; ++i) {
                     m.headers.push_back({"h" + std::to_string(i), ""});
                   }
                 }),
                 "kMaxHeaderCount");
  expect_refused(with([](auto& m) {
                   m.headers = {{"a", std::string(kMaxHeadersBytes / 2, 'v')},
                                {"b", std::string(kMaxHeadersBytes / 2, 'v')}};
                 }),
                 "kMaxHeadersBytes");
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxRoutingTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
