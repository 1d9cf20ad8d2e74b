// Shared by the Firestore inbox tests: an inbox store under a collection prefix of the
// test's own on the Firestore emulator (DOCKET_TEST_FIRESTORE_URL; every document
// deleted with the test), an application collection <prefix>orders for handlers to
// write to, and counts of the documents a collection holds. The message they deliver is
// the document providers' note (tests/document/inbox_note.h).
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
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/stores/open_store.h"
#include "document/inbox_note.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::firestore::detail {

// The fields {"payload": {"stringValue": value}}.
inline nlohmann::json payload(std::string value) {
  return {{"payload", {{"stringValue", std::move(value)}}}};
}

// The inbox on its collections, for the provider's own test fixtures and the document
// providers' shared cases (tests/document) alike.
class FirestoreInbox {
 public:
  using Handler = std::function<void(const Envelope&, Transaction&)>;

  // A dispatcher for consumer "billing" whose "note" handler runs `handler`.
  InboxDispatcher dispatcher(Handler handler, DedupCheck dedup = DedupCheck::kBeforeHandlers) {
    return document_tests::note_dispatcher<Transaction>(*store_, std::move(handler), dedup);
  }

  static Envelope note(std::string message_id) {
    return document_tests::note(std::move(message_id));
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

class FirestoreInboxTest : public ::testing::Test, public FirestoreInbox {};

}  // namespace docket::firestore::detail

#endif  // DOCKET_TESTS_INTEGRATION_FIRESTORE_INBOX_FIXTURE_H_
