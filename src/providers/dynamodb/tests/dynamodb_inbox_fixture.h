// Shared by the DynamoDB inbox tests: an inbox store under a table prefix of the test's
// own on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL; every table deleted with the test),
// an application table <prefix>orders keyed by pk (S) for handlers to write to, and
// consistent counts of the items a table holds.
#ifndef DOCKET_TESTS_INTEGRATION_DYNAMODB_INBOX_FIXTURE_H_
#define DOCKET_TESTS_INTEGRATION_DYNAMODB_INBOX_FIXTURE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "docket/dynamodb/transaction.h"
#include "docket/handler_registry.h"
#include "docket/inbox_dispatcher.h"
#include "docket/inbox_schema.h"
#include "docket/open_inbox_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb {

struct Note {
  std::string text;
};
inline void to_json(nlohmann::json& j, const Note& note) {
  j = {{"text", note.text}};
}
inline void from_json(const nlohmann::json& j, Note& note) {
  j.at("text").get_to(note.text);
}

class DynamoDbInboxTest : public ::testing::Test {
 public:
  using Handler = std::function<void(const Envelope&, Transaction&)>;

 protected:
  DynamoDbInboxTest() {
    ensure_table(client_, {.name = orders_,
                           .partition_key = {"pk", KeyType::kString},
                           .sort_key = std::nullopt,
                           .global_indexes = {}});
    store_->migrate();
  }

  // A dispatcher for consumer "billing" whose "note" handler runs `handler`.
  InboxDispatcher dispatcher(Handler handler, DedupCheck dedup = DedupCheck::kBeforeHandlers) {
    HandlerRegistry handlers;
    handlers.on<Note>(
        "note", [handler = std::move(handler)](const Note&, Transaction& tx, HandlerContext& ctx) {
          handler(ctx.envelope(), tx);
        });
    return InboxDispatcher(*store_, InboxOptions("billing", dedup), std::move(handlers));
  }

  static Envelope note(std::string message_id) {
    Envelope envelope;
    envelope.message_id = std::move(message_id);
    envelope.event_type = "note";
    envelope.payload = R"({"text":"hello"})";
    envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
    return envelope;
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

}  // namespace docket::dynamodb

#endif  // DOCKET_TESTS_INTEGRATION_DYNAMODB_INBOX_FIXTURE_H_
