#include "providers/kit/write_set.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/inbox/inbox_errors.h"

namespace docket::kit {
namespace {

struct Put {
  std::string key;
};
struct Append {
  std::string stream;
  int events;
};

using Set = WriteSet<Put, Append>;

TEST(WriteSetTest, StagesEachKindInOrderAndCountsWritesAndBytes) {
  Set set;
  EXPECT_TRUE(set.empty());
  set.add(Put{"a"}, 1, 10);
  set.add(Append{"s", 3}, 3, 30);
  set.add(Put{"b"}, 1, 5);
  ASSERT_EQ(set.list<Put>().size(), 2u);
  EXPECT_EQ(set.list<Put>()[1].key, "b");
  EXPECT_EQ(set.list<Append>().size(), 1u);
  EXPECT_EQ(set.writes(), 5u);
  EXPECT_EQ(set.bytes(), 45u);
}

TEST(WriteSetTest, RollingBackToASavepointDropsOnlyWhatFollowedIt) {
  Set set;
  set.add(Put{"kept"});
  set.begin_savepoint();
  set.add(Put{"dropped"}, 1, 7);
  set.add(Append{"s", 2}, 2);
  set.rollback_savepoint();
  ASSERT_EQ(set.list<Put>().size(), 1u);
  EXPECT_EQ(set.list<Put>()[0].key, "kept");
  EXPECT_TRUE(set.list<Append>().empty());
  EXPECT_EQ(set.writes(), 1u);
  EXPECT_EQ(set.bytes(), 0u);

  set.begin_savepoint();
  set.add(Put{"released"});
  set.release_savepoint();
  EXPECT_EQ(set.list<Put>().size(), 2u);
  EXPECT_THROW(set.release_savepoint(), InfrastructureError);
  EXPECT_THROW(set.rollback_savepoint(), InfrastructureError);
}

TEST(WriteSetTest, AWriteOverTheStoresLimitIsRefusedBeforeItIsStaged) {
  Set set(CommitLimits{"the Firestore inbox", 3, 0});
  set.add(Put{"1"});
  set.add(Put{"2"});
  try {
    set.add(Append{"s", 2}, 2);
    FAIL() << "no refusal";
  } catch (const CommitLimitError& e) {  // a ConfigurationError dispatch_batch tells apart
    const std::string message = e.what();
    EXPECT_NE(message.find("the Firestore inbox cannot join more than 3 writes in one commit"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("use the claim inbox"), std::string::npos) << message;
  }
  EXPECT_TRUE(set.list<Append>().empty());
  EXPECT_EQ(set.writes(), 2u);
  set.add(Put{"3"});  // exactly at the limit
  EXPECT_EQ(set.writes(), 3u);
}

TEST(WriteSetTest, TheByteLimitIsEnforcedToo) {
  Set set(CommitLimits::of("the DynamoDB inbox", StoreCapabilities{.max_writes_per_commit = 100,
                                                                   .max_bytes_per_commit = 100}));
  set.add(Put{"a"}, 1, 60);
  EXPECT_THROW(set.add(Put{"b"}, 1, 41), CommitLimitError);
  set.add(Put{"b"}, 1, 40);
  EXPECT_EQ(set.bytes(), 100u);
}

TEST(WriteSetTest, RollbackRestoresRoomUnderTheLimit) {
  Set set(CommitLimits{"store", 2, 0});
  set.add(Put{"a"});
  set.begin_savepoint();
  set.add(Put{"b"});
  EXPECT_THROW(set.add(Put{"c"}), ConfigurationError);
  set.rollback_savepoint();
  set.add(Put{"c"});
  EXPECT_EQ(set.list<Put>().back().key, "c");
}

}  // namespace
}  // namespace docket::kit
