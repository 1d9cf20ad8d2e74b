// Shared by the Firestore event and saga store tests (firestore_event_store_test.cc,
// firestore_saga_store_test.cc): the collection of one guarded store kind under a
// collection prefix of the test's own on the Firestore emulator, for the document
// providers' legacy-guard cases (tests/document/legacy_guard_cases.h) and the stores'
// own cases.
#ifndef DOCKET_PROVIDERS_FIRESTORE_TESTS_FIRESTORE_GUARD_COLLECTION_H_
#define DOCKET_PROVIDERS_FIRESTORE_TESTS_FIRESTORE_GUARD_COLLECTION_H_

#include <string>
#include <vector>

#include "document/legacy_guard_cases.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::firestore::detail {

// `Concrete`'s collection (collection()).
template <class Store, class Concrete>
class FirestoreGuardCollection : public document_tests::ConcreteGuardStores<Store, Concrete> {
 public:
  std::string url() const override { return collections_.url(); }

  // Each document, in id order: its id, its update time and its fields.
  std::vector<std::string> records() const override {
    std::vector<std::string> found;
    for (const Document& document : documents()) {
      found.push_back(document.id + " " + document.update_time + " " + document.fields.dump());
    }
    return found;
  }

  // Every document of the collection, in id order.
  std::vector<Document> documents() const {
    return run_query(client_, {.collection = this->collection()});
  }

  test_support::FirestoreCollections collections_;
  Client client_{parse_store_url(collections_.url())};
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_TESTS_FIRESTORE_GUARD_COLLECTION_H_
