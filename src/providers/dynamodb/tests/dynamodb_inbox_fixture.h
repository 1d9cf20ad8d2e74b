// Shared by the DynamoDB inbox tests: an inbox store under a table prefix of the test's
// own on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL; every table deleted with the test),
// an application table <prefix>orders keyed by pk (S) for handlers to write to, and
// consistent counts of the items a table holds. The message they deliver is the
// document providers' note (tests/document/inbox_note.h).
#ifndef DOCKET_TESTS_INTEGRATION_DYNAMODB_INBOX_FIXTURE_H_
#define DOCKET_TESTS_INTEGRATION_DYNAMODB_INBOX_FIXTURE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "docket/dynamodb/transaction.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/stores/open_store.h"
#include "document/inbox_note.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::detail {

// The inbox on its tables, for the provider's own test fixtures and the document
// providers' shared cases (tests/document) alike.
class DynamoDbInbox {
 public:
  using Handler = std::function<void(const Envelope&, Transaction&)>;

  DynamoDbInbox() {
    ensure_table(client_, {.name = orders_,
                           .partition_key = {"pk", KeyType::kString},
                           .sort_key = std::nullopt,
                           .global_indexes = {}});
    store_->migrate();
  }

  // A dispatcher for consumer "billing" whose "note" handler runs `handler`.
  InboxDispatcher dispatcher(Handler handler, DedupCheck dedup = DedupCheck::kBeforeHandlers) {
    return document_tests::note_dispatcher<Transaction>(*store_, std::move(handler), dedup);
  }

  static Envelope note(std::string message_id) {
    return document_tests::note(std::move(message_id));
  }

  // {"pk": {"S": pk}} and an item with it.
  static nlohmann::json key(const std::string& pk) { return {{"pk", {{"S", pk}}}}; }
  static nlohmann::json order(const std::string& pk, std::string payload = "x") {
    return {{"pk", {{"S", pk}}}, {"payload", {{"S", std::move(payload)}}}};
  }

  // The items of <prefix><base>, read with a consistent Scan.
  std::size_t items(std::string_view base) const {
    Pager pager = Pager::scan(
        client_, {{"TableName", tables_.prefix() + std::string(base)}, {"ConsistentRead", true}});
    std::size_t count = 0;
    while (const auto page = pager.next_page()) {
      count += page->size();
    }
    return count;
  }
  std::size_t orders() const { return items("orders"); }
  std::size_t dedup_items() const { return items(kInboxMessagesTable); }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  test_support::DynamoDbTables tables_;
  Client client_{parse_store_url(tables_.url())};
  std::string orders_ = tables_.prefix() + "orders";
  std::unique_ptr<InboxStore> store_ = open_inbox_store(tables_.url(), clock_);
};

class DynamoDbInboxTest : public ::testing::Test, public DynamoDbInbox {};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_TESTS_INTEGRATION_DYNAMODB_INBOX_FIXTURE_H_
