// The Firestore saga store's own cases against the Cloud Firestore emulator: its
// legacy-key guard (a document named {sagaId}_{sagaType}, without a tenant segment,
// written here raw as an earlier release did, makes a load that finds nothing, a
// create and a save that finds no saga refuse, naming the collection and the id, with
// every document untouched; the probe runs once per store instance and never after a
// read that returned the saga) and its documents' shape. Saves inside the provider's
// unit of work are the conformance suite's (handler_saga_test.cc, tests/sagas).
#include "providers/firestore/firestore_saga_store.h"

#include <chrono>
#include <string>
#include <vector>

#include "docket/error.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_fixture.h"

namespace docket::firestore::saga_store_test {
namespace {

constexpr std::string_view kLegacyId = "O-1001_checkout";

class FirestoreSagaStoreTest : public FirestoreTest {
 protected:
  std::string sagas() const { return collection(saga::kCollection); }

  // A saga document named `id` as a release without tenant segments wrote it.
  void put_raw(std::string_view id) const {
    const Write write{.collection = sagas(),
                      .id = std::string(id),
                      .fields = nlohmann::json{{"version", integer_value(3)},
                                               {"state", bytes_value("paid")},
                                               {"status", string_value("active")}}};
    ASSERT_TRUE(commit(client_, std::span<const Write>(&write, 1), "the test").applied);
  }

  // Every document of the sagas collection, in id order.
  std::vector<Document> documents() const { return run_query(client_, {.collection = sagas()}); }

  static SagaId checkout(std::string_view id) { return SagaId(TenantId("acme"), "checkout", id); }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

TEST_F(FirestoreSagaStoreTest, ALoadFindingNothingAndACreateRefuseNamingCollectionAndKey) {
  put_raw(kLegacyId);
  const std::vector<Document> before = documents();
  FirestoreSagaStore store(collections_.url(), clock_);
  try {
    store.load(checkout("O-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    EXPECT_EQ(e.collection(), sagas());
    EXPECT_EQ(e.key(), kLegacyId);
    const std::string message = e.what();
    EXPECT_NE(message.find("saga document"), std::string::npos) << message;
    EXPECT_NE(message.find("no tenant segment"), std::string::npos) << message;
    EXPECT_NE(message.find("Nothing has been modified"), std::string::npos) << message;
  }
  EXPECT_THROW(store.save(checkout("O-1001"), kNewSaga, "started"), LegacyDataError);
  EXPECT_THROW(store.save(checkout("O-1001"), 3, "phantom"), LegacyDataError);
  EXPECT_EQ(store.legacy_probes(), 1);  // the finding is kept, not probed for again
  const std::vector<Document> after = documents();
  ASSERT_EQ(after.size(), 1u);  // untouched, nothing added
  EXPECT_EQ(after[0].update_time, before[0].update_time);
}

TEST_F(FirestoreSagaStoreTest, ACleanCollectionIsProbedOncePerStoreAndNeverAfterTheSagaIsRead) {
  FirestoreSagaStore writer(collections_.url(), clock_);
  EXPECT_FALSE(writer.load(checkout("O-1")).has_value());
  EXPECT_EQ(writer.legacy_probes(), 1);
  ASSERT_TRUE(writer.save(checkout("O-1"), kNewSaga, "started").succeeded());
  EXPECT_FALSE(writer.load(checkout("O-2")).has_value());
  ASSERT_TRUE(writer.save(checkout("O-2"), kNewSaga, "started").succeeded());
  EXPECT_EQ(writer.legacy_probes(), 1);

  FirestoreSagaStore reader(collections_.url(), clock_);
  ASSERT_TRUE(reader.load(checkout("O-1")).has_value());
  ASSERT_TRUE(reader.save(checkout("O-1"), 0, "paid").succeeded());
  EXPECT_TRUE(reader.save(checkout("O-1"), 0, "stale").is_conflict());  // the saga was found
  EXPECT_EQ(reader.legacy_probes(), 0);

  FirestoreSagaStore creator(collections_.url(), clock_);
  ASSERT_TRUE(creator.save(checkout("O-3"), kNewSaga, "started").succeeded());
  EXPECT_EQ(creator.legacy_probes(), 1);
}

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
}  // namespace docket::firestore::saga_store_test
