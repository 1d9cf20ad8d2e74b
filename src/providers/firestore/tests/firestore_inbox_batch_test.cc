// dispatch_batch on the Firestore emulator, counted in requests: the document
// providers' batch cases (tests/document/inbox_batch_cases.h) on an inbox under a
// collection prefix of the test's own. Its dedup documents are read with one batchGet
// (100 ids a request) and its messages committed with one commit per unit of at most
// 500 writes (two a message: its dedup document and its order); a concurrent delivery's
// document refuses the commit.
#include <memory>
#include <string>

#include "document/inbox_batch_cases.h"
#include "firestore_inbox_fixture.h"

namespace docket::firestore::detail {
namespace {

using document_tests::InboxBatch;

// Orders are documents named by the message id, created in the unit's commit.
class FirestoreBatchInbox final : public document_tests::BatchInbox {
 public:
  InboxDispatcher dispatcher(Handler handler) override {
    return inbox_.dispatcher(std::move(handler));
  }
  std::unique_ptr<InboxStore> open_other_store() const override {
    return open_inbox_store(inbox_.collections_.url(), inbox_.clock_);
  }
  void put_order(HandlerTransaction& tx, const std::string& id) const override {
    dynamic_cast<Transaction&>(tx).create(inbox_.orders_, id, payload("x"));
  }
  std::size_t orders() const override { return inbox_.orders(); }
  std::size_t dedup_records() const override { return inbox_.dedup_documents(); }

 private:
  FirestoreInbox inbox_;
};

INSTANTIATE_TEST_SUITE_P(
    Firestore, InboxBatch,
    ::testing::Values(document_tests::InboxBatchCase{
        .make = [] { return std::make_unique<FirestoreBatchInbox>(); },
        .large_batch = 250,
        .large_batch_requests = 4,
        .large_batch_split = "three batchGets (100, 100, 50 ids), one commit of 500 writes"}));

}  // namespace
}  // namespace docket::firestore::detail
