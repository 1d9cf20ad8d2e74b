// Shared by the Firestore integration tests: a client on the Firestore test server
// (DOCKET_TEST_FIRESTORE_URL) whose store URL carries a collection prefix of the
// test's own, so that tests running in parallel processes never share a collection,
// and whose documents are deleted when the test ends.
#ifndef DOCKET_TESTS_INTEGRATION_FIRESTORE_FIXTURE_H_
#define DOCKET_TESTS_INTEGRATION_FIRESTORE_FIXTURE_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::firestore::detail {

class FirestoreTest : public ::testing::Test {
 protected:
  FirestoreTest() : client_(parse_store_url(collections_.url())) {}

  // The collection `base` under this test's prefix.
  std::string collection(std::string_view base) const { return client_.url().collection(base); }

  test_support::FirestoreCollections collections_;
  Client client_;
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_TESTS_INTEGRATION_FIRESTORE_FIXTURE_H_
