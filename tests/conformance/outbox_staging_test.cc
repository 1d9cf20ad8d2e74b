// Staging: atomic with the producer's writes, validated, stamped with the ambient tenant
// and the current message's lineage; sequences strictly increase.
#include "docket/core/message_context.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_errors.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

class OutboxStagingTest : public OutboxConformance {};

TEST_P(OutboxStagingTest, CommittedUnitMakesTheOrderAndTheMessageVisible) {
  const auto ids = stage_orders(1);
  EXPECT_EQ(fixture_->count_orders(*store_), 1);
  const auto row = store_->find(ids[0]);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->event_type, "OrderPlaced");
  EXPECT_EQ(row->payload, "{\"order\":\"order-0\"}");
  EXPECT_EQ(row->status, OutboxStatus::kPending);
  EXPECT_EQ(row->attempts, 0);
  EXPECT_EQ(row->created_at, clock_.now());
  EXPECT_EQ(row->occurred_at, clock_.now());
  EXPECT_EQ(row->tenant, kUntenantedSentinel);
  EXPECT_EQ(Uuid::parse(row->id)->version(), 7);
}

TEST_P(OutboxStagingTest, TheStoreStatesTheTransactionTypeItsUnitsGive) {
  const TransactionType type = store_->transaction_type();
  EXPECT_EQ(type.name, "docket::" + std::string(store_->provider_name()) + "::Transaction");
  {
    auto unit = store_->begin();  // holds the one connection of an in-memory SQLite store
    EXPECT_TRUE(type.is_type_of(unit->handler_transaction()));
    outbox_->stage(unit->handler_transaction(), {.event_type = "OrderPlaced"});  // accepted
    unit->commit();
  }
  EXPECT_EQ(store_->read_feed(0, 10).size(), 1U);
}

TEST_P(OutboxStagingTest, RolledBackUnitLeavesNeitherOrderNorMessage) {
  std::string id;
  {
    auto unit = store_->begin();
    fixture_->insert_order(unit->handler_transaction(), "order-x");
    id = outbox_->stage(unit->handler_transaction(), {.event_type = "OrderPlaced"}).to_string();
  }  // destroyed uncommitted
  EXPECT_EQ(fixture_->count_orders(*store_), 0);
  EXPECT_EQ(store_->find(id), std::nullopt);
  EXPECT_TRUE(store_->read_feed(0, 100).empty());
}

TEST_P(OutboxStagingTest, SequencesIncreaseInStagingOrder) {
  const auto ids = stage_orders(5);
  const auto feed = store_->read_feed(0, 100);
  ASSERT_EQ(feed.size(), 5U);
  for (std::size_t i = 0; i < feed.size(); ++i) {
    EXPECT_EQ(feed[i].id, ids[i]);
    if (i > 0) {
      EXPECT_GT(feed[i].sequence, feed[i - 1].sequence);
    }
  }
  EXPECT_EQ(store_->read_feed(feed[2].sequence, 1).at(0).id, ids[3]);
}

TEST_P(OutboxStagingTest, AmbientTenantLineageAndTraceAreRecorded) {
  const std::string traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  auto unit = store_->begin();
  std::string id;
  {
    TenantScope acme(TenantId("acme"));
    MessageContextScope current(MessageContext{
        .message_id = "incoming-1",
        .consumer_id = "billing",
        .correlation_id = "conversation-9",
        .trace = parse_trace_context(traceparent, "vendor=1"),
    });
    id = outbox_
             ->stage(unit->handler_transaction(),
                     {.event_type = "InvoiceRaised", .source = "billing"})
             .to_string();
  }
  unit->commit();
  unit.reset();  // return the connection (sqlite::memory: has one)
  const auto row = store_->find(id).value();
  EXPECT_EQ(row.tenant, "acme");
  EXPECT_EQ(row.causation_id, "incoming-1");
  EXPECT_EQ(row.correlation_id, "conversation-9");
  EXPECT_EQ(row.source, "billing");
  EXPECT_EQ(row.traceparent, traceparent);
  EXPECT_EQ(row.tracestate, "vendor=1");
}

// Trace context is observability: a header the consumer would drop does not stop the
// message, and it is not written either. A malformed traceparent (any bytes, invalid
// UTF-8 among them) is dropped with its tracestate, as if none was given; a malformed
// tracestate beside a valid traceparent is dropped alone.
TEST_P(OutboxStagingTest, AMalformedTraceContextIsDroppedNotWritten) {
  const std::string valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  auto unit = store_->begin();
  auto& tx = unit->handler_transaction();
  const std::string malformed =
      outbox_
          ->stage(tx, {.event_type = "T", .traceparent = "00-not-a-trace-01", .tracestate = "v=1"})
          .to_string();
  const std::string not_text =
      outbox_->stage(tx, {.event_type = "T", .traceparent = "\xFF\xFE", .tracestate = "\xC0\xAF"})
          .to_string();
  const std::string bad_state =
      outbox_->stage(tx, {.event_type = "T", .traceparent = valid, .tracestate = "\xFF=x"})
          .to_string();
  const std::string good =
      outbox_->stage(tx, {.event_type = "T", .traceparent = valid, .tracestate = "vendor=1"})
          .to_string();
  unit->commit();
  unit.reset();  // return the connection (sqlite::memory: has one)
  for (const std::string& id : {malformed, not_text}) {
    const auto row = store_->find(id).value();
    EXPECT_EQ(row.traceparent, "");
    EXPECT_EQ(row.tracestate, "");
  }
  EXPECT_EQ(store_->find(bad_state).value().traceparent, valid);
  EXPECT_EQ(store_->find(bad_state).value().tracestate, "");
  EXPECT_EQ(store_->find(good).value().traceparent, valid);
  EXPECT_EQ(store_->find(good).value().tracestate, "vendor=1");
}

TEST_P(OutboxStagingTest, InvalidMessagesAreRefusedAndNothingIsStaged) {
  auto unit = store_->begin();
  auto& tx = unit->handler_transaction();
  EXPECT_THROW(outbox_->stage(tx, {.event_type = ""}), InvalidInputError);
  EXPECT_THROW(outbox_->stage(tx, {.event_type = "\xFF"}), InvalidInputError);
  EXPECT_THROW(outbox_->stage(tx, {.event_type = std::string(kMaxEventTypeBytes + 1, 'e')}),
               InvalidInputError);
  EXPECT_THROW(outbox_->stage(tx, {.event_type = "T", .id = Uuid()}), InvalidInputError);
  EXPECT_THROW(outbox_->stage(tx, {.event_type = "T", .id = Uuid::v4()}), InvalidInputError);
  EXPECT_THROW(outbox_->stage(tx, {.event_type = "T", .causation_id = "\xC0\xAF"}),
               InvalidInputError);
  unit->commit();
  unit.reset();  // return the connection (sqlite::memory: has one)
  EXPECT_TRUE(store_->read_feed(0, 100).empty());
}

TEST_P(OutboxStagingTest, SuppliedIdIsKeptAndMustBeUnique) {
  const Uuid id = Uuid::v7();
  auto unit = store_->begin();
  EXPECT_EQ(outbox_->stage(unit->handler_transaction(), {.event_type = "T", .id = id}), id);
  // Reported when the insert reaches the database: at once, or where the store holds
  // writes back until the next statement (PostgreSQL), when they are sent.
  EXPECT_THROW(
      {
        outbox_->stage(unit->handler_transaction(), {.event_type = "T", .id = id});
        unit->flush_deferred_writes();
      },
      UniqueViolationError);
}

TEST_P(OutboxStagingTest, TransactionOfAnotherDatabaseIsRefused) {
  auto other = fixture_->open(clock_);
  auto unit = other->begin();
  EXPECT_THROW(outbox_->stage(unit->handler_transaction(), {.event_type = "T"}),
               ConfigurationError);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxStagingTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
