// The Firestore inbox's limits against the emulator: one unit of work holds at most 500
// writes (one commit), refused before anything is sent, and dispatch_batch splits a
// batch whose writes take one commit past them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "firestore_inbox_fixture.h"

namespace docket::firestore::detail {
namespace {

class FirestoreInboxLimitsTest : public FirestoreInboxTest {};

// A handler creating `count` orders, named by the message id.
FirestoreInboxTest::Handler creating(const std::string& collection, int count) {
  return [=](const Envelope& envelope, Transaction& tx) {
    for (int i = 0; i < count; ++i) {
      tx.create(collection, envelope.message_id + "-" + std::to_string(i), payload("x"));
    }
  };
}

TEST_F(FirestoreInboxLimitsTest, TheFiveHundredAndFirstWriteIsRefusedAndNothingIsWritten) {
  const auto over = dispatcher(creating(orders_, 500));  // + the dedup document: 501
  try {
    over.dispatch(note("m-1"));
    FAIL() << "501 writes must be refused";
  } catch (const CommitLimitError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot join more than 500 writes in one commit (this "
                                         "one would hold 501)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_documents(), 0u);
  const auto at = dispatcher(creating(orders_, 499));  // + the dedup document: 500
  EXPECT_EQ(at.dispatch(note("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(orders(), 499u);
  EXPECT_EQ(dedup_documents(), 1u);
}

TEST_F(FirestoreInboxLimitsTest, ABatchWhoseWritesPassOneCommitIsSplit) {
  const auto inbox = dispatcher(creating(orders_, 4));  // 5 writes a message
  std::vector<Envelope> envelopes;
  for (int i = 0; i < 150; ++i) {  // 750 writes: two commits
    envelopes.push_back(note("m-" + std::to_string(i)));
  }
  const auto results = inbox.dispatch_batch(envelopes);
  ASSERT_EQ(results.size(), 150u);
  for (std::size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].message_id, envelopes[i].message_id);
    EXPECT_EQ(results[i].outcome, DispatchOutcome::kProcessed) << results[i].message_id;
  }
  EXPECT_EQ(orders(), 600u);
  EXPECT_EQ(dedup_documents(), 150u);
  for (const BatchItemResult& again : inbox.dispatch_batch(envelopes)) {
    EXPECT_EQ(again.outcome, DispatchOutcome::kSkippedDuplicate);
  }
  EXPECT_EQ(orders(), 600u);
}

}  // namespace
}  // namespace docket::firestore::detail
