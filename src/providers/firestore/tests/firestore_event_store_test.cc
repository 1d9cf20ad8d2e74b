// The Firestore event store's own cases against the Cloud Firestore emulator: its
// legacy-key guard (the document providers' guard cases, tests/document/
// legacy_guard_cases.h, with documents whose ids have no tenant segment, written here
// raw as an earlier release did; and a legacy id is found on either side of the
// tenanted range however many tenanted documents there are), its limits (refused
// before anything is read or written) and its documents' shape.
#include "providers/firestore/firestore_event_store.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_guard_collection.h"
#include "providers/kit/http/request_count.h"

namespace docket::firestore::detail::event_store_test {
namespace {

using document_tests::EventLegacyGuard;

constexpr std::string_view kEventId = "0190a6c2-0000-7000-8000-000000000000";

class FirestoreEventCollection : public FirestoreGuardCollection<EventStore, FirestoreEventStore> {
 public:
  // An event document named `id` as a release without tenant segments wrote it.
  void put_raw(std::string_view id) const override {
    const Write write{.collection = collection(),
                      .id = std::string(id),
                      .fields = nlohmann::json{{"aggregateType", string_value("account")},
                                               {"aggregateId", string_value("A-1001")},
                                               {"version", integer_value(0)},
                                               {"eventId", string_value(kEventId)},
                                               {"type", string_value("Opened")},
                                               {"payload", bytes_value("")}}};
    ASSERT_TRUE(commit(client_, std::span<const Write>(&write, 1), "the test").applied);
  }

  std::string collection() const override { return client_.url().collection(event::kCollection); }
};

INSTANTIATE_TEST_SUITE_P(Firestore, EventLegacyGuard,
                         ::testing::Values(document_tests::EventGuardCase{
                             .make = [] { return std::make_unique<FirestoreEventCollection>(); },
                             .legacy_key = "account:A-1001:0",
                             .where = "Firestore collection",
                             .record = "event document"}));

class FirestoreEventStoreTest : public ::testing::Test, public FirestoreEventCollection {
 protected:
  std::string events() const { return collection(); }

  // Every document id of the events collection, in id order.
  std::vector<std::string> ids() const {
    std::vector<std::string> found;
    for (const Document& document : documents()) {
      found.push_back(document.id);
    }
    return found;
  }

  static StreamId account(std::string_view id) { return StreamId(TenantId("acme"), "account", id); }
};

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

// An append expecting a version whose event this store has seen (its own append, a load)
// is one commit with no read; a version it has not seen is read first; and a stale
// expectation is still refused as a whole, whatever the store knew.
TEST_F(FirestoreEventStoreTest, AnEventTheStoreHasSeenIsNotReadBeforeTheNextAppend) {
  FirestoreEventStore mine(collections_.url(), clock_);
  FirestoreEventStore other(collections_.url(), clock_);
  const StreamId stream = account("A-1");
  const auto requests_of = [](const std::function<AppendResult()>& append) {
    const std::uint64_t before = kit::http::docket_requests().load();
    const AppendResult result = append();
    return std::pair(result.succeeded(), kit::http::docket_requests().load() - before);
  };
  ASSERT_TRUE(mine.append(stream, ExpectedVersion::no_stream(), {{.type = "opened"}}).succeeded());
  // A store's first operation reads the tenant re-key's marker once
  // (firestore_tenant_rekey.h); the counts below are of the appends alone.
  ASSERT_TRUE(other.load(account("A-0")).empty());
  EXPECT_EQ(requests_of(
                [&] { return mine.append(stream, ExpectedVersion::exactly(0), {{.type = "a"}}); }),
            std::pair(true, std::uint64_t{1}));
  // `other` has seen nothing of the stream: it reads the event at 1 first.
  EXPECT_EQ(requests_of(
                [&] { return other.append(stream, ExpectedVersion::exactly(1), {{.type = "b"}}); }),
            std::pair(true, std::uint64_t{2}));
  // `mine` still knows version 1 only: its commit is refused (version 2 exists), and the
  // conflict reads the stream's version.
  const AppendResult stale = mine.append(stream, ExpectedVersion::exactly(1), {{.type = "c"}});
  ASSERT_FALSE(stale.succeeded());
  EXPECT_EQ(stale.conflict().actual_version, 2);
  // A load shows `mine` version 2; its next append is one request again.
  ASSERT_EQ(mine.load(stream).size(), 3u);
  EXPECT_EQ(requests_of(
                [&] { return mine.append(stream, ExpectedVersion::exactly(2), {{.type = "d"}}); }),
            std::pair(true, std::uint64_t{1}));
  std::vector<std::string> types;
  for (const RecordedEvent& event : other.load(stream)) {
    types.push_back(event.type);
  }
  EXPECT_EQ(types, (std::vector<std::string>{"opened", "a", "b", "d"}));
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
}  // namespace docket::firestore::detail::event_store_test
