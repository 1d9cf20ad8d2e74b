#include "document/legacy_guard_cases.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"

namespace docket::document_tests {

namespace legacy_guard_cases {
namespace {

template <class Store>
void print_case(const LegacyGuardCase<Store>& guard_case, std::ostream* os) {
  *os << guard_case.where << " holding " << guard_case.record << " '" << guard_case.legacy_key
      << "'";
}

// Expects `refusal` to name the table or collection and the legacy key in the
// provider's words, and to say that nothing was modified.
template <class Store>
void expect_names_the_legacy_record(const LegacyDataError& refusal,
                                    const LegacyGuardCase<Store>& guard_case,
                                    const LegacyGuardStores<Store>& stores) {
  EXPECT_EQ(refusal.collection(), stores.collection());
  EXPECT_EQ(refusal.key(), guard_case.legacy_key);
  const std::string message = refusal.what();
  EXPECT_NE(message.find(guard_case.where + " '" + stores.collection() + "'"), std::string::npos)
      << message;
  EXPECT_NE(message.find(guard_case.record), std::string::npos) << message;
  EXPECT_NE(message.find("no tenant segment"), std::string::npos) << message;
  EXPECT_NE(message.find("Nothing has been modified"), std::string::npos) << message;
}

StreamId account(std::string_view id) {
  return StreamId(TenantId("acme"), "account", id);
}
SagaId checkout(std::string_view id) {
  return SagaId(TenantId("acme"), "checkout", id);
}

}  // namespace
}  // namespace legacy_guard_cases

void PrintTo(const EventGuardCase& guard_case, std::ostream* os) {
  legacy_guard_cases::print_case(guard_case, os);
}
void PrintTo(const SagaGuardCase& guard_case, std::ostream* os) {
  legacy_guard_cases::print_case(guard_case, os);
}

using legacy_guard_cases::account;
using legacy_guard_cases::checkout;
using legacy_guard_cases::expect_names_the_legacy_record;

TEST_P(EventLegacyGuard, AnEmptyLoadAndANewStreamRefuseNamingTheRecordAndWritingNothing) {
  const std::vector<std::string> before = put_legacy_record();
  const auto store = stores_->open_store();
  try {
    store->load(account("A-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    expect_names_the_legacy_record(e, GetParam(), *stores_);
  }
  EXPECT_THROW(store->append(account("A-1001"), ExpectedVersion::no_stream(), {{.type = "Opened"}}),
               LegacyDataError);
  EXPECT_THROW(store->append(account("A-1001"), ExpectedVersion::any(), {{.type = "Opened"}}),
               LegacyDataError);
  EXPECT_EQ(stores_->legacy_probes(*store), 1);  // the finding is kept, not probed for again
  EXPECT_EQ(stores_->records(), before);         // untouched, nothing added
}

TEST_P(EventLegacyGuard, ACleanStoreIsProbedOnceAndNeverAfterEventsAreRead) {
  const auto writer = stores_->open_store();
  EXPECT_TRUE(writer->load(account("A-1")).empty());
  EXPECT_EQ(stores_->legacy_probes(*writer), 1);
  ASSERT_TRUE(writer->append(account("A-1"), ExpectedVersion::no_stream(), {{.type = "Opened"}})
                  .succeeded());
  EXPECT_TRUE(writer->load(account("A-2")).empty());
  EXPECT_EQ(stores_->legacy_probes(*writer), 1);

  // A read that returns events proves the table or collection addressable: a new store
  // never probes, nor does an append at a version it found.
  const auto reader = stores_->open_store();
  EXPECT_EQ(reader->load(account("A-1")).size(), 1u);
  ASSERT_TRUE(
      reader->append(account("A-1"), ExpectedVersion::exactly(0), {{.type = "More"}}).succeeded());
  ASSERT_TRUE(
      reader->append(account("A-1"), ExpectedVersion::any(), {{.type = "More"}}).succeeded());
  EXPECT_TRUE(reader->append(account("A-1"), ExpectedVersion::exactly(0), {{.type = "Stale"}})
                  .is_conflict());
  EXPECT_EQ(stores_->legacy_probes(*reader), 0);

  // A new stream is acting on silence even without a load before it.
  const auto creator = stores_->open_store();
  ASSERT_TRUE(creator->append(account("A-3"), ExpectedVersion::no_stream(), {{.type = "Opened"}})
                  .succeeded());
  EXPECT_EQ(stores_->legacy_probes(*creator), 1);
}

TEST_P(SagaLegacyGuard, ALoadFindingNothingAndACreateRefuseNamingTheRecordAndWritingNothing) {
  const std::vector<std::string> before = put_legacy_record();
  const auto store = stores_->open_store();
  try {
    store->load(checkout("O-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    expect_names_the_legacy_record(e, GetParam(), *stores_);
  }
  EXPECT_THROW(store->save(checkout("O-1001"), kNewSaga, "started"), LegacyDataError);
  EXPECT_THROW(store->save(checkout("O-1001"), 3, "phantom"), LegacyDataError);
  EXPECT_EQ(stores_->legacy_probes(*store), 1);  // the finding is kept, not probed for again
  EXPECT_EQ(stores_->records(), before);         // untouched, nothing added
}

TEST_P(SagaLegacyGuard, ACleanStoreIsProbedOnceAndNeverAfterTheSagaIsRead) {
  const auto writer = stores_->open_store();
  EXPECT_FALSE(writer->load(checkout("O-1")).has_value());
  EXPECT_EQ(stores_->legacy_probes(*writer), 1);
  ASSERT_TRUE(writer->save(checkout("O-1"), kNewSaga, "started").succeeded());
  EXPECT_FALSE(writer->load(checkout("O-2")).has_value());
  ASSERT_TRUE(writer->save(checkout("O-2"), kNewSaga, "started").succeeded());
  EXPECT_EQ(stores_->legacy_probes(*writer), 1);

  // A read that returns the saga proves the table or collection addressable: a new
  // store never probes.
  const auto reader = stores_->open_store();
  ASSERT_TRUE(reader->load(checkout("O-1")).has_value());
  ASSERT_TRUE(reader->save(checkout("O-1"), 0, "paid").succeeded());
  EXPECT_TRUE(reader->save(checkout("O-1"), 0, "stale").is_conflict());  // the saga was found
  EXPECT_EQ(stores_->legacy_probes(*reader), 0);

  // A create is acting on silence even without a load before it.
  const auto creator = stores_->open_store();
  ASSERT_TRUE(creator->save(checkout("O-3"), kNewSaga, "started").succeeded());
  EXPECT_EQ(stores_->legacy_probes(*creator), 1);
}

}  // namespace docket::document_tests
