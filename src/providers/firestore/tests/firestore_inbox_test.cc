// The Firestore inbox against the emulator: the dedup document's id and fields, a
// refused commit read by which precondition failed (a duplicate told apart from the
// handler's own taken id or failed condition), and docket::firestore::Transaction's
// refusals of misuse, each naming what was wrong before anything is sent.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/spi/inbox_unit.h"
#include "firestore_inbox_fixture.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_value.h"

namespace docket::firestore::detail {
namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

InboxRecord record(std::string message_id) {
  return InboxRecord{.key = {"acme", "billing", std::move(message_id)},
                     .event_type = "note",
                     .occurred_at = Timestamp(std::chrono::seconds(1'700'000'000)),
                     .source = "orders",
                     .causation_id = std::nullopt,
                     .correlation_id = std::nullopt};
}

Transaction& tx_of(UnitOfWork& unit) {
  return dynamic_cast<Transaction&>(unit.handler_transaction());
}

class FirestoreInboxUnitTest : public FirestoreInboxTest {};

TEST_F(FirestoreInboxUnitTest, TheDedupDocumentIsKeyedBySrcKeysAndCarriesItsTerms) {
  auto unit = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(unit->try_record(record("m/1:x")));
  unit->commit();
  const std::vector<Document> dedup = documents(kInboxMessagesTable);
  ASSERT_EQ(dedup.size(), 1u);
  EXPECT_EQ(dedup[0].id, "inbox:acme:m%2F1%3Ax:billing");
  const FieldReader fields(dedup[0].fields, "dedup document");
  EXPECT_EQ(fields.string("messageId"), "m/1:x");
  EXPECT_EQ(fields.string("handlerType"), "billing");
  EXPECT_EQ(fields.string("tenant"), "acme");
  EXPECT_EQ(fields.string("eventType"), "note");
  EXPECT_EQ(fields.optional_string("source"), "orders");
  EXPECT_EQ(fields.optional_string("correlationId"), std::nullopt);
  EXPECT_EQ(fields.timestamp("processedAt"), clock_.now());
  EXPECT_TRUE(store_->is_recorded(record("m/1:x").key));
  EXPECT_FALSE(store_->is_recorded(record("m/1").key));
}

TEST_F(FirestoreInboxUnitTest, ADuplicateIsTheDedupDocumentsPrecondition) {
  auto first = spi::InboxStoreAccess::begin(*store_);
  auto second = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(first->try_record(record("m-1")));
  ASSERT_TRUE(second->try_record(record("m-1"))) << "nothing is committed yet";
  tx_of(*first).create(orders_, "a", payload("a"));
  tx_of(*second).create(orders_, "b", payload("b"));
  first->commit();
  try {
    second->commit();
    FAIL() << "the second commit of one message must be refused";
  } catch (const UniqueViolationError& e) {
    EXPECT_EQ(e.table(), client_.url().collection(kInboxMessagesTable));
    EXPECT_TRUE(contains(e.what(), "recorded already")) << e.what();
    EXPECT_TRUE(contains(e.what(), "nothing of the unit of work was written")) << e.what();
  }
  EXPECT_EQ(orders(), 1u) << "the duplicate's own write went with it";
  EXPECT_EQ(dedup_documents(), 1u);
}

TEST_F(FirestoreInboxUnitTest, TheHandlersTakenIdIsAUniqueViolationNamingIt) {
  const auto inbox = dispatcher(
      [&](const Envelope&, Transaction& tx) { tx.create(orders_, "o-1", payload("x")); });
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  try {
    inbox.dispatch(note("m-2"));
    FAIL() << "a create of a taken id must be refused";
  } catch (const UniqueViolationError& e) {
    EXPECT_EQ(e.table(), orders_);
    EXPECT_TRUE(contains(e.what(), "create of document 'o-1'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "holds a document with that id already")) << e.what();
  }
  EXPECT_FALSE(store_->is_recorded(record("m-2").key)) << "nothing of m-2 was written";
}

TEST_F(FirestoreInboxUnitTest, ADuplicateDeliveryRunsNoHandlerAndAThrowWritesNothing) {
  std::atomic<int> runs = 0;
  bool fail = true;
  const auto inbox = dispatcher([&](const Envelope& envelope, Transaction& tx) {
    ++runs;
    tx.create(orders_, envelope.message_id, payload("x"));
    if (fail) {
      throw std::runtime_error("the handler failed");
    }
  });
  EXPECT_THROW(inbox.dispatch(note("m-1")), std::runtime_error);
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_documents(), 0u);
  fail = false;
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(orders(), 1u);
}

TEST_F(FirestoreInboxUnitTest, ConditionsHoldOrRefuseTheWholeCommit) {
  const Write stock{.collection = orders_, .id = "stock", .fields = payload("10")};
  ASSERT_TRUE(commit(client_, std::span<const Write>(&stock, 1), "test").applied);
  auto reader = spi::InboxStoreAccess::begin(*store_);
  const std::optional<DocumentRead> read = tx_of(*reader).get(orders_, "stock");
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->fields.at("payload").at("stringValue"), "10");
  EXPECT_FALSE(tx_of(*reader).get(orders_, "none").has_value());

  // A check writes nothing: the update time stays.
  auto checking = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(checking->try_record(record("m-1")));
  tx_of(*checking).check(orders_, "stock", Condition::unchanged(read->update_time));
  tx_of(*checking).check(orders_, "none", Condition::missing());
  checking->commit();
  EXPECT_EQ(tx_of(*reader).get(orders_, "stock")->update_time, read->update_time);

  // An update of only some fields keeps the others.
  auto updating = spi::InboxStoreAccess::begin(*store_);
  tx_of(*updating).update(orders_, "stock", {{"odd name", {{"integerValue", "3"}}}});
  updating->commit();
  const std::optional<DocumentRead> updated = tx_of(*reader).get(orders_, "stock");
  EXPECT_EQ(updated->fields.at("payload").at("stringValue"), "10");
  EXPECT_EQ(updated->fields.at("odd name").at("integerValue"), "3");

  // A write conditional on the first read fails now, and takes the dedup with it.
  auto stale = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(stale->try_record(record("m-2")));
  tx_of(*stale).set(orders_, "stock", payload("9"), Condition::unchanged(read->update_time));
  try {
    stale->commit();
    FAIL() << "a stale read's condition must refuse the commit";
  } catch (const ConditionFailedError& e) {
    EXPECT_EQ(e.table(), orders_);
    EXPECT_TRUE(contains(e.what(), "set of document 'stock'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "unchanged since update time")) << e.what();
  }
  EXPECT_FALSE(store_->is_recorded(record("m-2").key));

  auto missing = spi::InboxStoreAccess::begin(*store_);
  tx_of(*missing).update(orders_, "ghost", payload("1"));
  EXPECT_THROW(missing->commit(), ConditionFailedError);
  auto present = spi::InboxStoreAccess::begin(*store_);
  tx_of(*present).check(orders_, "stock", Condition::missing());
  tx_of(*present).remove(orders_, "ghost");
  EXPECT_THROW(present->commit(), ConditionFailedError);
  EXPECT_EQ(orders(), 1u);
}

TEST_F(FirestoreInboxUnitTest, MisuseIsRefusedAtOnceNamingWhatWasWrong) {
  auto unit = spi::InboxStoreAccess::begin(*store_);
  Transaction& tx = tx_of(*unit);
  const auto refused = [](const std::function<void()>& call, std::string_view part) {
    try {
      call();
      ADD_FAILURE() << "expected a refusal naming '" << part << "'";
    } catch (const InvalidInputError& e) {
      EXPECT_TRUE(contains(e.what(), part)) << e.what();
    }
  };
  refused([&] { tx.create("orders/nested", "a", payload("x")); },
          "'orders/nested' is not a Firestore collection id");
  refused([&] { tx.create("", "a", payload("x")); }, "a collection id is empty");
  refused([&] { tx.create(orders_, "a/b", payload("x")); }, "a/b");
  refused([&] { tx.create(orders_, "__x__", payload("x")); }, "__x__");
  refused([&] { tx.set(orders_, "a", nlohmann::json::array()); }, "fields must be a JSON object");
  refused([&] { tx.set(orders_, "a", {{"qty", 3}}); }, "qty");
  refused([&] { tx.update(orders_, "a", nlohmann::json::object()); }, "names no field");
  refused([&] { tx.set(orders_, "big", payload(std::string(1024 * 1024, 'x'))); }, "1048576");
  tx.create(orders_, "a", payload("x"));
  EXPECT_THROW(tx.create(orders_, "a", payload("y")), UniqueViolationError);
  refused([&] { tx.set(orders_, "a", payload("y")); }, "writes that document already");
  refused([&] { tx.remove(orders_, "a"); }, "make it one write");
  unit->commit();
  EXPECT_EQ(orders(), 1u) << "the refused writes staged nothing";
  try {
    tx.create(orders_, "b", payload("x"));
    FAIL() << "a write after commit must be refused";
  } catch (const InfrastructureError& e) {
    EXPECT_TRUE(contains(e.what(), "after commit; open a new unit of work")) << e.what();
  }
}

TEST_F(FirestoreInboxUnitTest, ARolledBackSavepointDropsItsWrites) {
  auto unit = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(unit->try_record(record("m-1")));
  unit->begin_savepoint();
  ASSERT_TRUE(unit->try_record(record("m-2")));
  tx_of(*unit).create(orders_, "dropped", payload("x"));
  unit->rollback_savepoint();
  EXPECT_FALSE(unit->is_recorded(record("m-2").key));
  tx_of(*unit).create(orders_, "dropped", payload("kept"));  // the id is free again
  unit->commit();
  EXPECT_EQ(orders(), 1u);
  EXPECT_EQ(dedup_documents(), 1u);
}

TEST_F(FirestoreInboxUnitTest, PurgeDeletesOnlyWhatWasProcessedBeforeTheCutoff) {
  for (const char* id : {"old-1", "old-2"}) {
    auto unit = spi::InboxStoreAccess::begin(*store_);
    ASSERT_TRUE(unit->try_record(record(id)));
    unit->commit();
  }
  clock_.advance(std::chrono::hours(2));
  auto unit = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(unit->try_record(record("new")));
  unit->commit();
  EXPECT_EQ(store_->purge_processed_before(clock_.now() - std::chrono::hours(1), 1), 2u);
  EXPECT_EQ(dedup_documents(), 1u);
  EXPECT_TRUE(store_->is_recorded(record("new").key));
}

}  // namespace
}  // namespace docket::firestore::detail
