// A Cosmos DB unit of work whose batch would be one create alone (a producer's one
// unkeyed message) sends it as a point create: the counter's draw and the create, two
// requests, as a batch of one took; and its failure is the batch's: an id the partition
// holds already is UniqueViolationError naming the container, nothing written. A keyed
// message (its key item too) still goes as a batch. The test server answers a batch of
// one as it answers a point create, so which was sent is not observable here; what is
// pinned is the cost (two requests) and the refusal (a point create whose 409 went
// unmapped fails that case).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/core/uuid.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "providers/kit/http/request_count.h"

namespace docket::cosmos::detail {
namespace {

class CosmosOutboxPointCreateTest : public ::testing::Test {
 protected:
  CosmosOutboxPointCreateTest() { store_->migrate(); }

  // Commits `message` in a unit of its own; the requests its commit sent.
  std::uint64_t commit_requests(const OutboxMessage& message) {
    auto unit = store_->begin();
    outbox_.stage(unit->handler_transaction(), message);
    const std::uint64_t before = kit::http::docket_requests().load();
    unit->commit();
    return kit::http::docket_requests().load() - before;
  }

  test_support::CosmosDatabase database_;
  std::unique_ptr<OutboxStore> store_ =
      docket::open_outbox_store(database_.url(), SystemClock::instance());
  Outbox outbox_{*store_};
  const TenantScope acme_{TenantId("acme")};
};

TEST_F(CosmosOutboxPointCreateTest, AnUnkeyedMessageIsTheDrawAndOneCreate) {
  commit_requests({.event_type = "T"});  // the first creates the sequence counter
  EXPECT_EQ(commit_requests({.event_type = "T"}), 2u);
  EXPECT_EQ(commit_requests({.event_type = "T"}), 2u);
  EXPECT_EQ(store_->read_feed(0, 10).size(), 3u);
}

TEST_F(CosmosOutboxPointCreateTest, ATakenIdIsRefusedAsTheBatchRefusesIt) {
  const Uuid id = Uuid::v7();
  commit_requests({.event_type = "T", .id = id});
  try {
    commit_requests({.event_type = "T", .payload = "second", .id = id});
    FAIL() << "a second message of that id was committed";
  } catch (const UniqueViolationError& error) {
    EXPECT_NE(std::string(error.what()).find("an item with that id exists"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("nothing of the unit of work was written"),
              std::string::npos)
        << error.what();
  }
  ASSERT_EQ(store_->read_feed(0, 10).size(), 1u);
  EXPECT_EQ(store_->find(id.to_string())->payload, "");
}

TEST_F(CosmosOutboxPointCreateTest, AKeyedMessageStillCommitsWithItsKeyItem) {
  commit_requests({.event_type = "T", .ordering_key = "k"});  // creates counter and key item
  EXPECT_EQ(commit_requests({.event_type = "T", .ordering_key = "k"}), 3u)
      << "the key item's read, the draw and the batch";
  EXPECT_EQ(store_->read_feed(0, 10).size(), 2u);
}

}  // namespace
}  // namespace docket::cosmos::detail
