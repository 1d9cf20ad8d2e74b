// The DynamoDB checkpoint store against DynamoDB Local: the checkpoint conformance
// cases (tests/conformance/checkpoint_test.cc, which run through an inbox store the
// DynamoDB provider does not have), with the table read directly.
#include "providers/dynamodb/dynamodb_checkpoint_store.h"

#include <gtest/gtest.h>

#include "docket/error.h"
#include "docket/inbox_options.h"
#include "docket/open_checkpoint_store.h"
#include "docket/tenant.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "support/dynamodb_tables.h"

namespace docket::dynamodb {
namespace {

class DynamoDbCheckpointStoreTest : public ::testing::Test {
 protected:
  // The items of the checkpoint table, read with a Scan.
  std::size_t items() const {
    const Client client(parse_store_url(tables_.url()));
    Pager pager =
        Pager::scan(client, {{"TableName", tables_.prefix() + std::string(kCheckpointTableBase)},
                             {"ConsistentRead", true}});
    std::size_t count = 0;
    while (const auto page = pager.next_page()) {
      count += page->size();
    }
    return count;
  }

  test_support::DynamoDbTables tables_;
  std::unique_ptr<CheckpointStore> store_ = docket::open_checkpoint_store(tables_.url());
};

TEST_F(DynamoDbCheckpointStoreTest, SecondSetReplacesTheFirstInOneItem) {
  EXPECT_EQ(store_->get("feed-reader"), std::nullopt);
  store_->set("feed-reader", "cursor-1");
  store_->set("feed-reader", "cursor-2");
  EXPECT_EQ(store_->get("feed-reader"), "cursor-2");
  EXPECT_EQ(items(), 1u);
}

TEST_F(DynamoDbCheckpointStoreTest, ConsumersAndTenantsHaveTheirOwnPositions) {
  store_->set("a", "1");
  store_->set("b", "2");
  {
    TenantScope acme(TenantId("acme"));
    EXPECT_EQ(store_->get("a"), std::nullopt);
    store_->set("a", "acme-1");
    EXPECT_EQ(store_->get("a"), "acme-1");
  }
  EXPECT_EQ(store_->get("a"), "1");
  EXPECT_EQ(store_->get("b"), "2");
  EXPECT_EQ(items(), 3u);
}

TEST_F(DynamoDbCheckpointStoreTest, BlankOrInvalidValuesAreRefusedAndNothingIsWritten) {
  EXPECT_THROW(store_->set("", "cursor-1"), InvalidInputError);
  EXPECT_THROW(store_->set("reader", ""), InvalidInputError);
  EXPECT_THROW(store_->set("reader", "\xFF"), InvalidInputError);
  EXPECT_THROW(store_->set(std::string(kMaxConsumerIdChars + 1, 'c'), "x"), InvalidInputError);
  // Over DynamoDB's item limit: refused before anything is sent.
  EXPECT_THROW(store_->set("reader", std::string(400 * 1024, 'p')), InvalidInputError);
  EXPECT_EQ(store_->get("reader"), std::nullopt);
  EXPECT_EQ(items(), 0u);
}

TEST_F(DynamoDbCheckpointStoreTest, AnotherStoreOnTheUrlSeesThePosition) {
  store_->set("projector", "42");
  EXPECT_EQ(docket::open_checkpoint_store(tables_.url())->get("projector"), "42");
}

}  // namespace
}  // namespace docket::dynamodb
