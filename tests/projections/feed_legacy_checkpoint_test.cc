// A checkpoint written before the consumer kept cursors (the next global position as
// decimal text) resumes where it stood, and the checkpoints the consumer writes on a
// feed of global positions are still that text, so either release reads the other's.
// Every provider of FeedJoinDatabases.
#include <optional>
#include <string>

#include "docket/core/feed_cursor.h"
#include "feed_fixture.h"

namespace docket::projection_tests::feed_legacy_checkpoint_test {
namespace {

template <typename Database>
class FeedLegacyCheckpoint : public FeedFixture<Database> {
 protected:
  // Consumer "balances"'s checkpoint under `tenant`'s scope.
  std::optional<std::string> stored(const TenantId& tenant) {
    const TenantScope scope(tenant);
    return this->inbox_store_->checkpoints().get("balances");
  }
  void store(const TenantId& tenant, const std::string& position) {
    const TenantScope scope(tenant);
    this->inbox_store_->checkpoints().set("balances", position);
  }
};

TYPED_TEST_SUITE(FeedLegacyCheckpoint, FeedJoinDatabases, JoinCaseNames);

TYPED_TEST(FeedLegacyCheckpoint, AWholeFeedConsumerResumesAtTheStoredPosition) {
  const auto rows =
      this->append(this->acme_, "A-1", {deposited(1), deposited(2), deposited(3), deposited(4)});
  const std::int64_t resume = this->position_of(rows[2]);
  this->store(TenantId::untenanted(), std::to_string(resume));  // as the consumer wrote it

  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox);
  EXPECT_EQ(consumer.cursor(), FeedCursor::at_position(resume));
  EXPECT_EQ(consumer.checkpoint(), resume);
  const EventFeedPass pass = consumer.run_once();
  EXPECT_EQ(pass.read, 2u) << "nothing before the stored position";
  EXPECT_EQ(pass.processed, 2u);
  this->expect_read_model({rows[2], rows[3]});
  EXPECT_EQ(this->stored(TenantId::untenanted()), std::to_string(this->end_of_feed()))
      << "still the decimal position";
}

TYPED_TEST(FeedLegacyCheckpoint, ATenantFilteredConsumerResumesAtTheStoredPosition) {
  const auto first = this->append(this->acme_, "A-1", {deposited(1)});
  this->append(this->globex_, "G-1", {deposited(2)});
  const auto second = this->append(this->acme_, "A-1", {deposited(3)});
  this->store(this->acme_, std::to_string(this->position_of(first[0]) + 1));

  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox, {.tenant = this->acme_});
  const EventFeedPass pass = consumer.run_once();
  EXPECT_EQ(pass.read, 1u);
  EXPECT_EQ(pass.processed, 1u);
  EXPECT_EQ(pass.cursor, FeedCursor::at_position(this->position_of(second[0]) + 1));
  this->expect_read_model(second);
  EXPECT_EQ(this->stored(this->acme_), pass.cursor.text());
}

}  // namespace
}  // namespace docket::projection_tests::feed_legacy_checkpoint_test
