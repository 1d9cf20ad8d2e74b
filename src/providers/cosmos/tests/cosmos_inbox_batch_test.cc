// dispatch_batch on the Cosmos DB test server, counted in requests: the document
// providers' batch cases (tests/document/inbox_batch_cases.h) on an inbox in a database of
// the test's own. Its dedup items are read with one query of the tenant's partition per
// 100 ids and its messages committed with one transactional batch per unit of at most 100
// operations (two a message: its dedup item and its order); a concurrent delivery's dedup
// item fails the whole batch, which the dispatcher runs again.
#include <memory>
#include <string>

#include "docket/cosmos/transaction.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/stores/open_store.h"
#include "document/inbox_batch_cases.h"
#include "document/inbox_note.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {
namespace {

using document_tests::InboxBatch;

// Orders are items "order:<message id>" of the inbox container, in the message's tenant
// partition beside its dedup item.
class CosmosBatchInbox final : public document_tests::BatchInbox {
 public:
  InboxDispatcher dispatcher(Handler handler) override {
    return document_tests::note_dispatcher<cosmos::Transaction>(*store_, std::move(handler),
                                                                DedupCheck::kBeforeHandlers);
  }
  std::unique_ptr<InboxStore> open_other_store() const override {
    return docket::open_inbox_store(database_.url(), SystemClock::instance());
  }
  void put_order(HandlerTransaction& tx, const std::string& id) const override {
    dynamic_cast<cosmos::Transaction&>(tx).create("order:" + id, {{"state", "placed"}});
  }
  std::size_t orders() const override {
    return count("SELECT VALUE COUNT(1) FROM c WHERE STARTSWITH(c.id, 'order:')");
  }
  std::size_t dedup_records() const override {
    return count("SELECT VALUE COUNT(1) FROM c WHERE c.docketTable = '" +
                 std::string(kInboxMessagesTable) + "'");
  }

 private:
  std::size_t count(std::string sql) const {
    return static_cast<std::size_t>(query_count(
        client_,
        {.container = client_.url().container(kInboxContainerBase), .sql = std::move(sql)}));
  }

  test_support::CosmosDatabase database_;
  std::unique_ptr<InboxStore> store_ =
      docket::open_inbox_store(database_.url(), SystemClock::instance());
  Client client_{parse_store_url(database_.url())};
};

INSTANTIATE_TEST_SUITE_P(
    Cosmos, InboxBatch,
    ::testing::Values(document_tests::InboxBatchCase{
        .make = [] { return std::make_unique<CosmosBatchInbox>(); },
        .large_batch = 100,
        .large_batch_requests = 4,
        .large_batch_split = "per unit of 50 messages (100 operations): one query of the "
                             "dedup items, one transactional batch"}));

}  // namespace
}  // namespace docket::cosmos::detail
