// The DynamoDB inbox's limits against DynamoDB Local: one unit of work holds at most 100
// actions and 4 MB (one TransactWriteItems), refused before anything is sent, and
// dispatch_batch splits a batch whose writes take one commit past them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "dynamodb_inbox_fixture.h"

namespace docket::dynamodb::detail {
namespace {

class DynamoDbInboxLimitsTest : public DynamoDbInboxTest {};

// A handler inserting `count` orders, keyed by the message id.
DynamoDbInboxTest::Handler inserting(const std::string& table, int count,
                                     std::size_t payload_bytes = 1) {
  return [=](const Envelope& envelope, Transaction& tx) {
    for (int i = 0; i < count; ++i) {
      tx.insert(table, {{"pk", {{"S", envelope.message_id + "/" + std::to_string(i)}}},
                        {"payload", {{"S", std::string(payload_bytes, 'p')}}}});
    }
  };
}

TEST_F(DynamoDbInboxLimitsTest, TheHundredAndFirstActionIsRefusedAndNothingIsWritten) {
  const auto over = dispatcher(inserting(orders_, 100));  // + the dedup item: 101
  try {
    over.dispatch(note("m-1"));
    FAIL() << "101 actions must be refused";
  } catch (const CommitLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot join more than 100 writes in one commit (this "
                                         "one would hold 101)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_items(), 0u);
  const auto at = dispatcher(inserting(orders_, 99));  // + the dedup item: 100
  EXPECT_EQ(at.dispatch(note("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(orders(), 99u);
  EXPECT_EQ(dedup_items(), 1u);
}

TEST_F(DynamoDbInboxLimitsTest, FourMegabytesAreRefusedBeforeSending) {
  const auto heavy = dispatcher(inserting(orders_, 11, 390'000));  // 11 x 390 KB > 4 MB
  try {
    heavy.dispatch(note("m-1"));
    FAIL() << "more than 4 MB must be refused";
  } catch (const CommitLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot join more than 4194304 bytes in one commit"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_items(), 0u);
}

TEST_F(DynamoDbInboxLimitsTest, ABatchWhoseWritesPassOneCommitIsSplit) {
  const auto inbox = dispatcher(inserting(orders_, 2));  // 3 actions a message
  std::vector<Envelope> envelopes;
  for (int i = 0; i < 80; ++i) {  // 240 actions: three transactions
    envelopes.push_back(note("m-" + std::to_string(i)));
  }
  const auto results = inbox.dispatch_batch(envelopes);
  ASSERT_EQ(results.size(), 80u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].message_id, envelopes[i].message_id);
    EXPECT_EQ(results[i].outcome, DispatchOutcome::kProcessed) << results[i].message_id;
  }
  EXPECT_EQ(orders(), 160u);
  EXPECT_EQ(dedup_items(), 80u);
  for (const BatchItemResult& again : inbox.dispatch_batch(envelopes)) {
    EXPECT_EQ(again.outcome, DispatchOutcome::kSkippedDuplicate);
  }
}

TEST_F(DynamoDbInboxLimitsTest, AMessageOverTheLimitAloneFailsAloneInABatch) {
  const auto inbox = dispatcher([&](const Envelope& envelope, Transaction& tx) {
    inserting(orders_, envelope.message_id == "m-2" ? 100 : 1)(envelope, tx);
  });
  std::vector<Envelope> envelopes;
  for (int i = 0; i < 5; ++i) {
    envelopes.push_back(note("m-" + std::to_string(i)));
  }
  const auto results = inbox.dispatch_batch(envelopes);
  ASSERT_EQ(results.size(), 5u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (i == 2) {
      ASSERT_FALSE(results[i].ok());
      EXPECT_THROW(std::rethrow_exception(results[i].error), CommitLimitError);
    } else {
      EXPECT_EQ(results[i].outcome, DispatchOutcome::kProcessed) << i;
    }
  }
  EXPECT_EQ(orders(), 4u);
  EXPECT_EQ(dedup_items(), 4u);
}

TEST_F(DynamoDbInboxLimitsTest, ABatchOfMoreMessagesThanOneCommitHoldsIsRefusedWhole) {
  const auto inbox = dispatcher(inserting(orders_, 0));
  std::vector<Envelope> envelopes;
  for (int i = 0; i < 101; ++i) {
    envelopes.push_back(note("m-" + std::to_string(i)));
  }
  EXPECT_THROW(inbox.dispatch_batch(envelopes), ConfigurationError);
  EXPECT_EQ(dedup_items(), 0u);
}

}  // namespace
}  // namespace docket::dynamodb::detail
