// The DynamoDB event store against DynamoDB Local: every field back as appended, the
// expectations and their conflicts (nothing written), tenants' own streams, the
// transaction's limits refused before sending, eight concurrent appenders to one
// stream, and the capabilities it states (no feed, no joined transaction).
#include "providers/dynamodb/dynamodb_event_store.h"

#include <gtest/gtest.h>

#include <barrier>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "docket/error.h"
#include "docket/open_event_store.h"
#include "support/dynamodb_tables.h"

namespace docket::dynamodb::event_store_test {
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

TEST_F(DynamoDbEventStoreTest, AppendsAndLoadsEveryFieldByteForByte) {
  std::string payload;
  for (int b = 0; b < 256; ++b) {
    payload += static_cast<char>(b);
  }
  NewEvent first = event("Opened", payload);
  first.metadata.correlation_id = "conversation-1";
  first.metadata.causation_id = "message-7";
  first.metadata.trace_context =
      parse_trace_context("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "vendor=x");
  first.occurred_at = Timestamp(std::chrono::microseconds(1'700'000'000'123'456));
  const AppendResult result =
      store_->append(account("A-1"), ExpectedVersion::no_stream(), {first, event("Empty")});
  ASSERT_TRUE(result.succeeded());
  EXPECT_EQ(result.success().new_version, 1);

  const std::vector<RecordedEvent> loaded = store_->load(account("A-1"));
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].stream, account("A-1"));
  EXPECT_EQ(loaded[0].version, 0);
  EXPECT_EQ(loaded[0].event_id, result.success().events[0].event_id);
  EXPECT_EQ(loaded[0].type, "Opened");
  EXPECT_EQ(loaded[0].payload, payload);
  EXPECT_EQ(loaded[0].metadata, first.metadata);
  EXPECT_EQ(loaded[0].occurred_at, *first.occurred_at);
  EXPECT_EQ(loaded[1].payload, "");
  EXPECT_EQ(loaded[1].metadata, EventMetadata{});
  EXPECT_EQ(loaded[1].occurred_at, clock_.now());
  EXPECT_EQ(store_->load(account("A-1"), 1).size(), 1u);
}

TEST_F(DynamoDbEventStoreTest, ExpectationsConflictAndWriteNothing) {
  ASSERT_TRUE(store_->append(account("A-1"), ExpectedVersion::no_stream(), events(2)).succeeded());
  const AppendResult stale = store_->append(account("A-1"), ExpectedVersion::exactly(0), events(3));
  ASSERT_TRUE(stale.is_conflict());
  EXPECT_EQ(stale.conflict().expected_version, 0);
  EXPECT_EQ(stale.conflict().actual_version, 1);
  const AppendResult exists =
      store_->append(account("A-1"), ExpectedVersion::no_stream(), events(1));
  ASSERT_TRUE(exists.is_conflict());
  EXPECT_EQ(exists.conflict().actual_version, 1);
  const AppendResult ahead = store_->append(account("A-1"), ExpectedVersion::exactly(5), events(1));
  ASSERT_TRUE(ahead.is_conflict());
  EXPECT_EQ(store_->load(account("A-1")).size(), 2u);

  EXPECT_EQ(store_->append(account("A-1"), ExpectedVersion::exactly(1), events(1))
                .value_or_throw()
                .new_version,
            2);
  EXPECT_EQ(store_->append(account("A-1"), ExpectedVersion::any(), events(2))
                .value_or_throw()
                .new_version,
            4);
  EXPECT_EQ(store_->append(account("B-1"), ExpectedVersion::any(), events(1))
                .value_or_throw()
                .new_version,
            0);
}

TEST_F(DynamoDbEventStoreTest, TenantsHaveTheirOwnStreamsAndVersions) {
  ASSERT_TRUE(
      store_->append(account("A-1", "acme"), ExpectedVersion::no_stream(), events(2)).succeeded());
  ASSERT_TRUE(store_->append(account("A-1", "globex"), ExpectedVersion::no_stream(), events(1))
                  .succeeded());
  EXPECT_EQ(store_->load(account("A-1", "acme")).size(), 2u);
  EXPECT_EQ(store_->load(account("A-1", "globex")).size(), 1u);
}

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

TEST_F(DynamoDbEventStoreTest, EightConcurrentAppendersLoseNothingAndLeaveNoGap) {
  constexpr int kWriters = 8;
  constexpr int kAppendsEach = 5;
  std::barrier start(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const std::unique_ptr<EventStore> store = docket::open_event_store(tables_.url(), clock_);
      start.arrive_and_wait();
      for (int i = 0; i < kAppendsEach; ++i) {
        const std::string payload = std::to_string(w) + "/" + std::to_string(i);
        for (;;) {
          const std::vector<RecordedEvent> loaded = store->load(account("shared"));
          const ExpectedVersion expected = loaded.empty()
                                               ? ExpectedVersion::no_stream()
                                               : ExpectedVersion::exactly(loaded.back().version);
          if (store->append(account("shared"), expected, {event("Deposited", payload)})
                  .succeeded()) {
            break;
          }
        }
      }
    });
  }
  for (std::thread& writer : writers) {
    writer.join();
  }
  const std::vector<RecordedEvent> loaded = store_->load(account("shared"));
  ASSERT_EQ(loaded.size(), static_cast<std::size_t>(kWriters * kAppendsEach));
  std::set<std::string> payloads;
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    EXPECT_EQ(loaded[i].version, static_cast<std::int64_t>(i));
    payloads.insert(loaded[i].payload);
  }
  EXPECT_EQ(payloads.size(), loaded.size());
}

TEST_F(DynamoDbEventStoreTest, StatesNoFeedAndRefusesFeedReads) {
  const StoreCapabilities caps = store_->capabilities();
  EXPECT_EQ(caps.feed, FeedKind::kNone);
  EXPECT_FALSE(caps.joins_handler_writes);
  EXPECT_FALSE(caps.interactive_transactions);
  EXPECT_EQ(caps.max_writes_per_commit, kMaxTransactionActions);
  EXPECT_TRUE(caps.shared_between_processes);
  EXPECT_EQ(store_->provider_name(), "dynamodb");
  EXPECT_THROW(store_->read_all(0, 10), ConfigurationError);
  EXPECT_THROW(store_->read_feed(FeedCursor::start(), 10), ConfigurationError);
  EXPECT_FALSE(store_->accepts_cursor(FeedCursor::start()));
}

}  // namespace
}  // namespace docket::dynamodb::event_store_test
