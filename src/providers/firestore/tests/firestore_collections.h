// A collection prefix of one's own on the Firestore test server, so that tests in
// parallel ctest processes never see each other's documents: url() is
// DOCKET_TEST_FIRESTORE_URL with a prefix no other process or earlier call uses. Every
// document of every collection under the prefix is deleted on construction (a leftover
// of a crashed run) and on destruction. (The emulator can also empty a whole database,
// but that is every test's database at once.)
//
// Thread-safety: construct and destroy on one thread; url() is a constant.
#ifndef DOCKET_TESTS_SUPPORT_FIRESTORE_COLLECTIONS_H_
#define DOCKET_TESTS_SUPPORT_FIRESTORE_COLLECTIONS_H_

#include <string>

namespace docket::test_support {

class FirestoreCollections {
 public:
  // Fails the test (std::runtime_error) when DOCKET_TEST_FIRESTORE_URL is missing.
  FirestoreCollections();
  ~FirestoreCollections();
  FirestoreCollections(const FirestoreCollections&) = delete;
  FirestoreCollections& operator=(const FirestoreCollections&) = delete;

  // firestore://127.0.0.1:PORT?project=...&prefix=<prefix>
  const std::string& url() const noexcept { return url_; }
  const std::string& prefix() const noexcept { return prefix_; }

  // Deletes every document of every top-level collection whose id starts with the
  // prefix.
  void drop_collections() const;

 private:
  std::string prefix_;
  std::string url_;
};

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_FIRESTORE_COLLECTIONS_H_
