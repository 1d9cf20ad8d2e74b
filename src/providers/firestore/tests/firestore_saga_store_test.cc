// The Firestore saga store's own cases against the Cloud Firestore emulator: its
// legacy-key guard (the document providers' guard cases, tests/document/
// legacy_guard_cases.h, with documents named {sagaId}_{sagaType}, without a tenant
// segment, written here raw as an earlier release did) and its documents' shape. Saves
// inside the provider's unit of work are the conformance suite's (handler_saga_test.cc,
// tests/sagas).
#include "providers/firestore/firestore_saga_store.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_guard_collection.h"

namespace docket::firestore::detail::saga_store_test {
namespace {

using document_tests::SagaLegacyGuard;

class FirestoreSagaCollection : public FirestoreGuardCollection<SagaStore, FirestoreSagaStore> {
 public:
  // A saga document named `id` as a release without tenant segments wrote it.
  void put_raw(std::string_view id) const override {
    const Write write{.collection = collection(),
                      .id = std::string(id),
                      .fields = nlohmann::json{{"version", integer_value(3)},
                                               {"state", bytes_value("paid")},
                                               {"status", string_value("active")}}};
    ASSERT_TRUE(commit(client_, std::span<const Write>(&write, 1), "the test").applied);
  }

  std::string collection() const override { return client_.url().collection(saga::kCollection); }
};

INSTANTIATE_TEST_SUITE_P(Firestore, SagaLegacyGuard,
                         ::testing::Values(document_tests::SagaGuardCase{
                             .make = [] { return std::make_unique<FirestoreSagaCollection>(); },
                             .legacy_key = "O-1001_checkout",
                             .where = "Firestore collection",
                             .record = "saga document"}));

class FirestoreSagaStoreTest : public ::testing::Test, public FirestoreSagaCollection {};

TEST_F(FirestoreSagaStoreTest, ASagaIsOneDocumentKeyedByTenantIdAndType) {
  FirestoreSagaStore store(collections_.url(), clock_);
  const SagaId saga(TenantId("acme:eu"), "Order_Saga", "order_42/x");
  ASSERT_TRUE(store.save(saga, kNewSaga, "s", SagaStatus::kCompleted).succeeded());
  const std::vector<Document> stored = documents();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(stored[0].id, "t:acme%3Aeu:order%5F42%2Fx_Order_Saga");
  const FieldReader fields(stored[0].fields, "the test");
  EXPECT_EQ(fields.string("tenant"), "acme:eu");
  EXPECT_EQ(fields.string("sagaType"), "Order_Saga");
  EXPECT_EQ(fields.string("sagaId"), "order_42/x");
  EXPECT_EQ(fields.string("status"), "completed");
  EXPECT_EQ(fields.timestamp("completedAt"), clock_.now());
  EXPECT_THROW(store.save(saga, 0, "again"), InvalidInputError);
}

}  // namespace
}  // namespace docket::firestore::detail::saga_store_test
