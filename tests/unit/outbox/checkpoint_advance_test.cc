// The pull consumer's checkpoint rule: advance over processed positions, stop at a gap
// below the high-water mark until it fills or has been seen for gap_timeout.
#include <gtest/gtest.h>

#include "docket/outbox/pull_consumer.h"

namespace docket {
namespace {

using std::chrono::seconds;

class CheckpointAdvance : public ::testing::Test {
 protected:
  std::int64_t advance(std::int64_t checkpoint, std::vector<std::int64_t> processed) {
    return advance_checkpoint(checkpoint, processed, gaps_, now_, seconds(10));
  }
  std::map<std::int64_t, Timestamp> gaps_;
  Timestamp now_{seconds(1'800'000'000)};
};

TEST_F(CheckpointAdvance, MovesOverContiguousPositions) {
  EXPECT_EQ(advance(0, {1, 2, 3}), 3);
  EXPECT_EQ(advance(3, {1, 2, 3, 4}), 4);  // positions at or behind it are ignored
  EXPECT_EQ(advance(4, {}), 4);
  EXPECT_TRUE(gaps_.empty());
}

TEST_F(CheckpointAdvance, StopsBelowAGapUntilItFills) {
  EXPECT_EQ(advance(0, {1, 2, 4, 5}), 2);  // 3 is not visible yet
  EXPECT_EQ(gaps_.count(3), 1U);
  now_ += seconds(9);
  EXPECT_EQ(advance(2, {3 - 1, 4, 5}), 2);  // still young
  EXPECT_EQ(advance(2, {3, 4, 5}), 5);      // the late row committed
  EXPECT_TRUE(gaps_.empty());
}

TEST_F(CheckpointAdvance, PassesAGapOnceItIsOlderThanTheTimeout) {
  EXPECT_EQ(advance(0, {3, 4}), 0);  // a gap at 1..2 right above the checkpoint
  now_ += seconds(10);
  EXPECT_EQ(advance(0, {3, 4, 7}), 4);  // 1..2 passed as rolled back; 5..6 is new
  EXPECT_EQ(gaps_.count(5), 1U);
  EXPECT_EQ(gaps_.count(1), 0U);
  now_ += seconds(10);
  EXPECT_EQ(advance(4, {7}), 7);
}

TEST_F(CheckpointAdvance, NeverPassesTheHighestProcessedPosition) {
  EXPECT_EQ(advance(0, {1, 2}), 2);
  now_ += seconds(3600);
  EXPECT_EQ(advance(2, {}), 2);  // nothing above: no gap to pass, nothing to skip
}

}  // namespace
}  // namespace docket
