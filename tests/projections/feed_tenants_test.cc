// Tenants on the event feed: a tenant-filtered consumer sees its tenant's events only
// and keeps its checkpoint under that tenant; a whole-feed consumer dispatches each
// event under its own tenant (the dedup key carries it) and keeps one checkpoint under
// "__untenanted__", whatever the caller's TenantScope. Every provider of FeedJoinDatabases.
#include <string>
#include <vector>

#include "feed_fixture.h"

namespace docket::projection_tests {
namespace {

template <typename Database>
class FeedTenants : public FeedFixture<Database> {
 protected:
  // The checkpoint of consumer "balances" under `tenant`'s scope, as stored.
  std::optional<std::string> stored_checkpoint(const TenantId& tenant) {
    const TenantScope scope(tenant);
    return this->inbox_store_->checkpoints().get("balances");
  }

  bool recorded(const TenantId& tenant, const RecordedEvent& event) {
    return this->inbox_store_->is_recorded(
        DedupKey{tenant.value(), "balances", event.event_id.to_string()});
  }
};

TYPED_TEST_SUITE(FeedTenants, FeedJoinDatabases, JoinCaseNames);

TYPED_TEST(FeedTenants, ATenantFilteredConsumerSeesItsTenantOnlyAndKeepsItsOwnCheckpoint) {
  const auto acme_1 = this->append(this->acme_, "A-1", {deposited(1)});
  const auto globex = this->append(this->globex_, "A-1", {deposited(2), deposited(3)});
  const auto acme_2 = this->append(this->acme_, "A-1", {deposited(4)});
  const auto inbox = this->projection();

  EventFeedConsumer for_acme(*this->events_, inbox, {.tenant = this->acme_});
  const EventFeedPass pass = for_acme.run_once();
  EXPECT_EQ(pass.read, 2u);
  EXPECT_EQ(pass.processed, 2u);
  EXPECT_EQ(pass.checkpoint, this->position_of(acme_2[0]) + 1);
  this->expect_read_model(concat(acme_1, acme_2));
  EXPECT_EQ(this->stored_checkpoint(this->acme_), std::to_string(pass.checkpoint));
  EXPECT_EQ(this->stored_checkpoint(this->globex_), std::nullopt);
  EXPECT_EQ(this->stored_checkpoint(TenantId::untenanted()), std::nullopt);

  // Another tenant's consumer may share the consumer id: its own events, checkpoint.
  EventFeedConsumer for_globex(*this->events_, inbox, {.tenant = this->globex_});
  EXPECT_EQ(TestFixture::drain(for_globex).processed, 2u);
  EXPECT_EQ(for_acme.run_once().read, 0u);
  this->expect_read_model(concat(concat(acme_1, acme_2), globex));
  for (const RecordedEvent& e : this->events_->read_all(0, 10).events) {
    EXPECT_TRUE(this->recorded(e.stream.tenant(), e));
    const TenantId& other = e.stream.tenant() == this->acme_ ? this->globex_ : this->acme_;
    EXPECT_FALSE(this->recorded(other, e)) << "the dedup row carries the event's tenant";
  }
}

TYPED_TEST(FeedTenants, AWholeFeedConsumerDispatchesUnderEachTenantWithOneCheckpoint) {
  // Tenants interleave on the feed: acme, globex, acme, acme.
  auto rows = this->append(this->acme_, "A-1", {deposited(1)});
  rows = concat(rows, this->append(this->globex_, "A-1", {deposited(2)}));
  rows = concat(rows, this->append(this->acme_, "A-2", {deposited(3), deposited(4)}));
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox, {.batch_size = 10});
  {
    const TenantScope caller(this->globex_);  // the caller's scope does not matter
    const EventFeedPass pass = consumer.run_once();
    EXPECT_EQ(pass.processed, 4u);
    EXPECT_EQ(pass.checkpoint, this->end_of_feed());
  }
  this->expect_read_model(rows);
  for (const RecordedEvent& e : this->events_->read_all(0, 10).events) {
    EXPECT_TRUE(this->recorded(e.stream.tenant(), e));
    EXPECT_FALSE(this->recorded(TenantId::untenanted(), e));
  }
  EXPECT_EQ(this->stored_checkpoint(TenantId::untenanted()), std::to_string(this->end_of_feed()));
  EXPECT_EQ(this->stored_checkpoint(this->acme_), std::nullopt);
  EXPECT_EQ(this->stored_checkpoint(this->globex_), std::nullopt);
  EXPECT_EQ(consumer.run_once().read, 0u);
}

TYPED_TEST(FeedTenants, AFailureInOneTenantsRunStopsTheWholeFeedThere) {
  const auto acme = this->append(this->acme_, "A-1", {deposited(1)});
  const auto globex = this->append(this->globex_, "A-1", {deposited(2)});
  const auto after = this->append(this->acme_, "A-1", {deposited(3)});
  const std::int64_t poison = this->position_of(globex[0]);
  this->refuse_at(poison);
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox);
  EXPECT_THROW(consumer.run_once(), std::runtime_error);
  EXPECT_EQ(consumer.checkpoint(), poison);
  this->expect_read_model(acme);
  EXPECT_EQ(this->attempts_, 2) << "the acme run after the failure was not dispatched";

  this->refusing_ = false;
  EXPECT_EQ(consumer.run_once().processed, 2u);
  this->expect_read_model(concat(concat(acme, globex), after));
}

}  // namespace
}  // namespace docket::projection_tests
