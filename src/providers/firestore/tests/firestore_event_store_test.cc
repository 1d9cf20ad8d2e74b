// The Firestore event store's own cases against the Cloud Firestore emulator: its
// legacy-key guard (a document whose id has no tenant segment, written here raw as an
// earlier release did, makes an empty load and a new stream refuse, naming the
// collection and the id, with nothing written; the probe runs once per store instance
// and never after a read that returned documents; a legacy id is found on either side
// of the tenanted range however many tenanted documents there are), its limits
// (refused before anything is read or written) and its documents' shape.
#include "providers/firestore/firestore_event_store.h"

#include <chrono>
#include <string>
#include <vector>

#include "docket/error.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_fixture.h"

namespace docket::firestore::event_store_test {
namespace {

class FirestoreEventStoreTest : public FirestoreTest {
 protected:
  std::string events() const { return collection(event::kCollection); }

  // An event document named `id` as a release without tenant segments wrote it.
  void put_raw(std::string_view id) const {
    const Write write{.collection = events(),
                      .id = std::string(id),
                      .fields = nlohmann::json{{"aggregateType", string_value("account")},
                                               {"aggregateId", string_value("A-1001")},
                                               {"version", integer_value(0)},
                                               {"eventId", string_value(kEventId)},
                                               {"type", string_value("Opened")},
                                               {"payload", bytes_value("")}}};
    ASSERT_TRUE(commit(client_, std::span<const Write>(&write, 1), "the test").applied);
  }

  // Every document id of the events collection, in id order.
  std::vector<std::string> ids() const {
    std::vector<std::string> found;
    for (const Document& document : run_query(client_, {.collection = events()})) {
      found.push_back(document.id);
    }
    return found;
  }

  static StreamId account(std::string_view id) { return StreamId(TenantId("acme"), "account", id); }

  static constexpr std::string_view kEventId = "0190a6c2-0000-7000-8000-000000000000";
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

TEST_F(FirestoreEventStoreTest,
       AnEmptyLoadAndANewStreamRefuseNamingCollectionAndKeyWritingNothing) {
  constexpr std::string_view kLegacyId = "account:A-1001:0";
  put_raw(kLegacyId);
  FirestoreEventStore store(collections_.url(), clock_);
  try {
    store.load(account("A-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    EXPECT_EQ(e.collection(), events());
    EXPECT_EQ(e.key(), kLegacyId);
    const std::string message = e.what();
    EXPECT_NE(message.find("Firestore collection '" + events() + "'"), std::string::npos)
        << message;
    EXPECT_NE(message.find("event document"), std::string::npos) << message;
    EXPECT_NE(message.find("no tenant segment"), std::string::npos) << message;
    EXPECT_NE(message.find("Nothing has been modified"), std::string::npos) << message;
  }
  EXPECT_THROW(store.append(account("A-1001"), ExpectedVersion::no_stream(), {{.type = "Opened"}}),
               LegacyDataError);
  EXPECT_THROW(store.append(account("A-1001"), ExpectedVersion::any(), {{.type = "Opened"}}),
               LegacyDataError);
  EXPECT_EQ(store.legacy_probes(), 1);  // the finding is kept, not probed for again
  EXPECT_EQ(ids(), std::vector<std::string>{std::string(kLegacyId)});
}

TEST_F(FirestoreEventStoreTest, ACleanCollectionIsProbedOncePerStoreAndNeverAfterEventsAreRead) {
  FirestoreEventStore writer(collections_.url(), clock_);
  EXPECT_TRUE(writer.load(account("A-1")).empty());
  EXPECT_EQ(writer.legacy_probes(), 1);
  ASSERT_TRUE(writer.append(account("A-1"), ExpectedVersion::no_stream(), {{.type = "Opened"}})
                  .succeeded());
  EXPECT_TRUE(writer.load(account("A-2")).empty());
  EXPECT_EQ(writer.legacy_probes(), 1);

  // A read that returns events proves the collection addressable: a new store never
  // probes, nor does an append at a version it found.
  FirestoreEventStore reader(collections_.url(), clock_);
  EXPECT_EQ(reader.load(account("A-1")).size(), 1u);
  ASSERT_TRUE(
      reader.append(account("A-1"), ExpectedVersion::exactly(0), {{.type = "More"}}).succeeded());
  ASSERT_TRUE(
      reader.append(account("A-1"), ExpectedVersion::any(), {{.type = "More"}}).succeeded());
  EXPECT_TRUE(reader.append(account("A-1"), ExpectedVersion::exactly(0), {{.type = "Stale"}})
                  .is_conflict());
  EXPECT_EQ(reader.legacy_probes(), 0);

  // A new stream is acting on silence even without a load before it.
  FirestoreEventStore creator(collections_.url(), clock_);
  ASSERT_TRUE(creator.append(account("A-3"), ExpectedVersion::no_stream(), {{.type = "Opened"}})
                  .succeeded());
  EXPECT_EQ(creator.legacy_probes(), 1);
}

TEST_F(FirestoreEventStoreTest, ALegacyIdOnEitherSideOfTheTenantedRangeIsFoundAmongManyOthers) {
  FirestoreEventStore writer(collections_.url(), clock_);
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(writer
                    .append(account("S-" + std::to_string(i)), ExpectedVersion::no_stream(),
                            {{.type = "Opened"}, {.type = "More"}})
                    .succeeded());
  }
  put_raw("widget:W-1:0");  // sorts after every "t:" id
  FirestoreEventStore above(collections_.url(), clock_);
  try {
    above.load(account("A-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    EXPECT_EQ(e.key(), "widget:W-1:0");
  }
  delete_collection(client_, events());
  put_raw("Order:A-1:3");  // sorts before every "t:" id
  FirestoreEventStore below(collections_.url(), clock_);
  EXPECT_THROW(below.load(account("A-1001")), LegacyDataError);
  EXPECT_EQ(below.legacy_probes(), 1);
}

TEST_F(FirestoreEventStoreTest, AnAppendBeyondTheCommitOrDocumentLimitIsRefusedBeforeAnyRequest) {
  FirestoreEventStore store(collections_.url(), clock_);
  const std::vector<NewEvent> over(kMaxWritesPerCommit + 1, NewEvent{.type = "e"});
  try {
    store.append(account("A-1"), ExpectedVersion::no_stream(), over);
    FAIL() << "no refusal";
  } catch (const InvalidInputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("at most 500 writes per commit"), std::string::npos) << message;
    EXPECT_NE(message.find("Nothing was written"), std::string::npos) << message;
  }
  EXPECT_THROW(store.append(account("A-1"), ExpectedVersion::any(),
                            {{.type = "big", .payload = std::string(kMaxDocumentBytes, 'x')}}),
               InvalidInputError);
  EXPECT_EQ(store.legacy_probes(), 0);  // refused before the guard's query
  EXPECT_TRUE(ids().empty());
  const std::vector<NewEvent> full(kMaxWritesPerCommit, NewEvent{.type = "e"});
  EXPECT_EQ(
      store.append(account("A-1"), ExpectedVersion::no_stream(), full).value_or_throw().new_version,
      static_cast<std::int64_t>(kMaxWritesPerCommit) - 1);
  EXPECT_EQ(store.load(account("A-1"), 498).size(), 2u);
}

TEST_F(FirestoreEventStoreTest, EachEventIsADocumentCarryingItsStreamAndVersion) {
  FirestoreEventStore store(collections_.url(), clock_);
  const StreamId awkward(TenantId("acme:eu"), "Order/V2", "A 1001#x_");
  ASSERT_TRUE(store.append(awkward, ExpectedVersion::no_stream(), {{.type = "a"}, {.type = "b"}})
                  .succeeded());
  EXPECT_EQ(ids(), (std::vector<std::string>{"t:acme%3Aeu:Order%2FV2:A%201001%23x_:0",
                                             "t:acme%3Aeu:Order%2FV2:A%201001%23x_:1"}));
  const std::optional<Document> second = get_document(client_, events(), ids().back());
  ASSERT_TRUE(second.has_value());
  const FieldReader fields(second->fields, "the test");
  EXPECT_EQ(fields.string("tenant"), "acme:eu");
  EXPECT_EQ(fields.string("aggregateType"), "Order/V2");
  EXPECT_EQ(fields.string("aggregateId"), "A 1001#x_");
  EXPECT_EQ(fields.integer("version"), 1);
  const std::vector<RecordedEvent> loaded = store.load(awkward);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[1].type, "b");
  EXPECT_EQ(loaded[1].stream, awkward);
}

}  // namespace
}  // namespace docket::firestore::event_store_test
