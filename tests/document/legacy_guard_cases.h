// The legacy-key guard (kit/legacy_probe.h) of a document provider's event and saga
// stores, the same cases on every such provider (DynamoDB Local, the Firestore
// emulator): a record keyed without a tenant segment (written raw, as an earlier release
// did) makes the store refuse to act on silence, naming the table or collection and the
// key, with every record untouched; the probe runs once per store instance and never
// after a read that returned records.
//
// Each provider's test file implements a LegacyGuardStores<EventStore> (or <SagaStore>)
// on its server and instantiates the cases:
//   INSTANTIATE_TEST_SUITE_P(DynamoDb, EventLegacyGuard, ::testing::Values(EventGuardCase{...}));
// What only one provider's guard does (the blind spot of a one-page Scan, the range
// queries on either side of the tenanted ids) stays in that provider's test file.
#ifndef DOCKET_TESTS_DOCUMENT_LEGACY_GUARD_CASES_H_
#define DOCKET_TESTS_DOCUMENT_LEGACY_GUARD_CASES_H_

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/sagas/saga_store.h"

namespace docket::document_tests {

// One provider's stores of kind `Store` under a prefix of their own on its test server
// (deleted with it).
template <class Store>
class LegacyGuardStores {
 public:
  virtual ~LegacyGuardStores() = default;

  // A new store instance on the database, its probe not yet run.
  virtual std::unique_ptr<Store> open_store() const = 0;
  // The probes `store` (one open_store() returned) has sent.
  virtual int legacy_probes(const Store& store) const = 0;
  // Writes a record keyed `key` raw, as a release without tenant segments did: the
  // events' stream account/A-1001 at version 0, or the saga checkout/O-1001 at version 3.
  virtual void put_raw(std::string_view key) const = 0;
  // Every record of the table or collection as stored, in the provider's read order:
  // its key, a space, then what tells a rewrite apart (its attributes or its update
  // time).
  virtual std::vector<std::string> records() const = 0;
  // The table or collection, as LegacyDataError::collection() names it.
  virtual std::string collection() const = 0;
};

// LegacyGuardStores whose stores are the provider's class `Concrete`, opened on the
// store URL the provider gives (`url()`) with a manual clock of their own.
template <class Store, class Concrete>
class ConcreteGuardStores : public LegacyGuardStores<Store> {
 public:
  std::unique_ptr<Store> open_store() const override {
    return std::make_unique<Concrete>(url(), clock_);
  }
  int legacy_probes(const Store& store) const override {
    return dynamic_cast<const Concrete&>(store).legacy_probes();
  }
  // The store URL, under the provider's prefix.
  virtual std::string url() const = 0;

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

// One provider's case: its stores, and how it words its keys and its refusals.
template <class Store>
struct LegacyGuardCase {
  std::function<std::unique_ptr<LegacyGuardStores<Store>>()> make;
  std::string legacy_key;  // the legacy record's key: "account:A-1001", "SAGA#O-1001"
  std::string where;       // the refusal's place before the quoted name: "DynamoDB table"
  std::string record;      // what the refusal calls a record: "event item", "saga document"
};

using EventGuardCase = LegacyGuardCase<EventStore>;
using SagaGuardCase = LegacyGuardCase<SagaStore>;

void PrintTo(const EventGuardCase& guard_case, std::ostream* os);
void PrintTo(const SagaGuardCase& guard_case, std::ostream* os);

// Every case runs on fresh stores from the parameter's factory.
template <class Store>
class LegacyGuard : public ::testing::TestWithParam<LegacyGuardCase<Store>> {
 protected:
  // The records put_raw() wrote, before the case acts: exactly the legacy one.
  std::vector<std::string> put_legacy_record() {
    stores_->put_raw(this->GetParam().legacy_key);
    std::vector<std::string> stored = stores_->records();
    EXPECT_EQ(stored.size(), 1u);
    EXPECT_TRUE(!stored.empty() && stored[0].starts_with(this->GetParam().legacy_key + " "))
        << ::testing::PrintToString(stored);
    return stored;
  }

  std::unique_ptr<LegacyGuardStores<Store>> stores_ = this->GetParam().make();
};

using EventLegacyGuard = LegacyGuard<EventStore>;
using SagaLegacyGuard = LegacyGuard<SagaStore>;

}  // namespace docket::document_tests

#endif  // DOCKET_TESTS_DOCUMENT_LEGACY_GUARD_CASES_H_
