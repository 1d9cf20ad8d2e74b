// dispatch_batch on DynamoDB Local, counted in requests: the document providers' batch
// cases (tests/document/inbox_batch_cases.h) on an inbox under a table prefix of the
// test's own. Its dedup items are read with one consistent BatchGetItem and its
// messages committed with one TransactWriteItems per unit of at most 100 actions (two a
// message: its dedup item and its order); a concurrent delivery's item cancels the
// transaction.
#include <memory>
#include <string>

#include "document/inbox_batch_cases.h"
#include "dynamodb_inbox_fixture.h"

namespace docket::dynamodb::detail {
namespace {

using document_tests::InboxBatch;

// Orders are items keyed by the message id (pk), put in the unit's transaction.
class DynamoDbBatchInbox final : public document_tests::BatchInbox {
 public:
  InboxDispatcher dispatcher(Handler handler) override {
    return inbox_.dispatcher(std::move(handler));
  }
  std::unique_ptr<InboxStore> open_other_store() const override {
    return open_inbox_store(inbox_.tables_.url(), inbox_.clock_);
  }
  void put_order(HandlerTransaction& tx, const std::string& id) const override {
    dynamic_cast<Transaction&>(tx).put(inbox_.orders_, DynamoDbInbox::order(id));
  }
  std::size_t orders() const override { return inbox_.orders(); }
  std::size_t dedup_records() const override { return inbox_.dedup_items(); }

 private:
  DynamoDbInbox inbox_;
};

INSTANTIATE_TEST_SUITE_P(
    DynamoDb, InboxBatch,
    ::testing::Values(document_tests::InboxBatchCase{
        .make = [] { return std::make_unique<DynamoDbBatchInbox>(); },
        .large_batch = 100,
        .large_batch_requests = 4,
        .large_batch_split =
            "per unit of 50 messages (100 actions): one BatchGetItem, one TransactWriteItems"}));

}  // namespace
}  // namespace docket::dynamodb::detail
