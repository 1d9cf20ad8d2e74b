// Shared by the Firestore inbox tests: an inbox store under a collection prefix of the
// test's own on the Firestore emulator (DOCKET_TEST_FIRESTORE_URL; every document
// deleted with the test), an application collection <prefix>orders for handlers to
// write to, and counts of the documents a collection holds.
#ifndef DOCKET_TESTS_INTEGRATION_FIRESTORE_INBOX_FIXTURE_H_
#define DOCKET_TESTS_INTEGRATION_FIRESTORE_INBOX_FIXTURE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "docket/firestore/transaction.h"
#include "docket/handler_registry.h"
#include "docket/inbox_dispatcher.h"
#include "docket/inbox_schema.h"
#include "docket/open_inbox_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::firestore {

struct Note {
  std::string text;
};
inline void to_json(nlohmann::json& j, const Note& note) {
  j = {{"text", note.text}};
}
inline void from_json(const nlohmann::json& j, Note& note) {
  j.at("text").get_to(note.text);
}

// The fields {"payload": {"stringValue": value}}.
inline nlohmann::json payload(std::string value) {
  return {{"payload", {{"stringValue", std::move(value)}}}};
}

class FirestoreInboxTest : public ::testing::Test {
 public:
  using Handler = std::function<void(const Envelope&, Transaction&)>;

 protected:
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

  // The documents of <prefix><base>.
  std::vector<Document> documents(std::string_view base) const {
    std::vector<Document> all;
    query_pages(client_, Query{.collection = client_.url().collection(base)}, 500,
                [&](std::vector<Document>& page) {
                  all.insert(all.end(), page.begin(), page.end());
                  return true;
                });
    return all;
  }
  std::size_t orders() const { return documents("orders").size(); }
  std::size_t dedup_documents() const { return documents(kInboxMessagesTable).size(); }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  test_support::FirestoreCollections collections_;
  Client client_{parse_store_url(collections_.url())};
  std::string orders_ = client_.url().collection("orders");
  std::unique_ptr<InboxStore> store_ = open_inbox_store(collections_.url(), clock_);
};

}  // namespace docket::firestore

#endif  // DOCKET_TESTS_INTEGRATION_FIRESTORE_INBOX_FIXTURE_H_
