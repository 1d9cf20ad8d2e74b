// The DynamoDB event store's own boundaries against DynamoDB Local: one TransactWriteItems
// per append, so 100 actions, one of them the expected version's check on a stream
// that exists, refused before sending with the count that fits; and a stream's first
// event alone as one PutItem whose resend is told apart from a conflict. The rest of its
// behaviour is the event sourcing conformance suite's (its fixture is in
// src/providers/dynamodb/conformance/).
#include "providers/dynamodb/dynamodb_event_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/stores/open_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "providers/kit/key_bridge.h"

namespace docket::dynamodb::detail::event_store_test {
namespace {

class DynamoDbEventStoreTest : public ::testing::Test {
 protected:
  static StreamId account(std::string_view id, std::string_view tenant = "acme") {
    return StreamId(TenantId(tenant), "account", id);
  }
  static NewEvent event(std::string type, std::string payload = {}) {
    return NewEvent{.type = std::move(type), .payload = std::move(payload)};
  }
  static std::vector<NewEvent> events(std::size_t count) {
    return std::vector<NewEvent>(count, event("Deposited", "1"));
  }

  test_support::DynamoDbTables tables_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<EventStore> store_ = docket::open_event_store(tables_.url(), clock_);
};

TEST_F(DynamoDbEventStoreTest, MoreThanOneTransactionHoldsIsRefusedBeforeSending) {
  try {
    store_->append(account("A-1"), ExpectedVersion::no_stream(), events(101));
    FAIL() << "no refusal";
  } catch (const InvalidInputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("at most 100"), std::string::npos) << message;
    EXPECT_NE(message.find("Append at most 99 events per call"), std::string::npos) << message;
  }
  // 100 events fit a new stream's transaction; after a version, its check takes one.
  ASSERT_TRUE(
      store_->append(account("A-1"), ExpectedVersion::no_stream(), events(100)).succeeded());
  EXPECT_THROW(store_->append(account("A-1"), ExpectedVersion::exactly(99), events(100)),
               InvalidInputError);
  EXPECT_THROW(store_->append(account("A-1"), ExpectedVersion::exactly(99),
                              {event("Huge", std::string(401 * 1024, 'x'))}),
               InvalidInputError);
  EXPECT_EQ(store_->load(account("A-1")).size(), 100u);
}

// A stream's first event appended alone is one conditional PutItem. Sent a second time,
// as the client resends after an ambiguous failure whose first try was applied, it is
// refused with the stored item, which holds the same event: that is the append's own
// success. Another event on the same version is a real conflict.
TEST_F(DynamoDbEventStoreTest, AResentFirstEventPutIsToldApartFromAConflict) {
  ASSERT_TRUE(store_->append(account("A-0"), ExpectedVersion::no_stream(), events(1)).succeeded());
  const StreamId stream = account("A-1");
  const std::string key = kit::stream_key(keys::Provider::kDynamoDb, stream).value;
  const std::string table = parse_store_url(tables_.url()).table_name(kEventsTableBase);
  const Client client(parse_store_url(tables_.url()));
  const auto recorded = [&](Uuid id) {
    return RecordedEvent{.stream = stream,
                         .version = 0,
                         .event_id = id,
                         .type = "Opened",
                         .occurred_at = clock_.now()};
  };
  const RecordedEvent mine = recorded(Uuid::v7());
  const Call put{.operation = "PutItem", .table = table};
  ASSERT_TRUE(client.call(put, first_event_put_request(table, event_item(key, mine))).ok());
  const Response resent = client.call(put, first_event_put_request(table, event_item(key, mine)));
  ASSERT_FALSE(resent.ok());
  EXPECT_TRUE(refusal_holds_event(resent.error(), stream, mine, "test"));
  const RecordedEvent theirs = recorded(Uuid::v7());
  const Response other = client.call(put, first_event_put_request(table, event_item(key, theirs)));
  ASSERT_FALSE(other.ok());
  EXPECT_FALSE(refusal_holds_event(other.error(), stream, theirs, "test"));
  EXPECT_EQ(store_->load(stream).size(), 1u);
  EXPECT_EQ(store_->load(stream).front().event_id, mine.event_id);
}

}  // namespace
}  // namespace docket::dynamodb::detail::event_store_test
