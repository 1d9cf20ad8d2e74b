// Listing sagas (SagaStore::list): by status, saga type, tenant or every tenant, and
// last update before a time; each saga with its identity, version, status and times;
// in pages of at most `limit` that, followed through `next`, hold every match exactly
// once, whatever the provider's order.
#include <gmock/gmock.h>

#include <set>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using ::testing::UnorderedElementsAreArray;

class SagaList : public StoreConformance {
 protected:
  // Creates `saga` at the clock's time and saves it `more_saves` times more.
  void start(const SagaId& saga, int more_saves = 0) {
    sagas_->save(saga, kNewSaga, "s").value_or_throw();
    for (int i = 0; i < more_saves; ++i) {
      sagas_->save(saga, i, "s" + std::to_string(i)).value_or_throw();
    }
  }
  // Creates `saga` and completes it at the clock's time.
  void finish(const SagaId& saga) {
    sagas_->save(saga, kNewSaga, "s").value_or_throw();
    sagas_->save(saga, 0, "done", SagaStatus::kCompleted).value_or_throw();
  }

  // Every page of `request` from the first, at `page_size` each, checking each page's
  // bound and that a saga is listed once; the sagas listed, in order.
  std::vector<SagaSummary> list_all(SagaListRequest request, std::size_t page_size) {
    request.limit = page_size;
    request.after = std::nullopt;
    std::vector<SagaSummary> listed;
    std::set<SagaId> seen;
    for (int pages = 0; pages < 1000; ++pages) {
      const SagaPage page = sagas_->list(request);
      EXPECT_LE(page.sagas.size(), page_size);
      for (const SagaSummary& summary : page.sagas) {
        EXPECT_TRUE(seen.insert(summary.saga).second)
            << summary.saga.describe() << " listed twice, page " << pages;
        listed.push_back(summary);
      }
      if (!page.next) {
        return listed;
      }
      EXPECT_FALSE(page.sagas.empty() && page.next == request.after) << "a page that stands still";
      request.after = page.next;
    }
    ADD_FAILURE() << "the listing did not end within 1000 pages";
    return listed;
  }
  std::vector<SagaId> ids(const SagaListRequest& request, std::size_t page_size = 100) {
    std::vector<SagaId> out;
    for (const SagaSummary& summary : list_all(request, page_size)) {
      out.push_back(summary.saga);
    }
    return out;
  }
  static SagaId saga(std::string_view type, std::string_view id, std::string_view tenant_name) {
    return SagaId(TenantId(tenant_name), type, id);
  }
};

TEST_P(SagaList, AnEmptyStoreListsNothing) {
  const SagaPage page = sagas_->list({});
  EXPECT_TRUE(page.sagas.empty());
  EXPECT_FALSE(page.next.has_value());
  EXPECT_TRUE(ids({.status = SagaStatus::kActive}).empty());
}

TEST_P(SagaList, ListsEachSagaWithItsVersionStatusAndTimes) {
  const Timestamp started = clock_.now();
  start(checkout("O-1"));
  clock_.advance(std::chrono::seconds(5));
  sagas_->save(checkout("O-1"), 0, "step 2").value_or_throw();
  clock_.advance(std::chrono::seconds(5));
  finish(checkout("O-2"));

  const std::vector<SagaSummary> all = list_all({}, 100);
  ASSERT_EQ(all.size(), 2U);
  const SagaSummary& active = all[0].saga == checkout("O-1") ? all[0] : all[1];
  const SagaSummary& completed = all[0].saga == checkout("O-1") ? all[1] : all[0];
  EXPECT_EQ(active.saga, checkout("O-1"));
  EXPECT_EQ(active.version, 1);
  EXPECT_EQ(active.status, SagaStatus::kActive);
  EXPECT_EQ(active.started_at, started);
  EXPECT_EQ(active.updated_at, started + std::chrono::seconds(5));
  EXPECT_FALSE(active.completed_at.has_value());
  EXPECT_EQ(completed.saga, checkout("O-2"));
  EXPECT_EQ(completed.version, 1);
  EXPECT_EQ(completed.status, SagaStatus::kCompleted);
  EXPECT_EQ(completed.updated_at, clock_.now());
  EXPECT_EQ(completed.completed_at, clock_.now());
  // The record load() returns says the same.
  const std::optional<SagaRecord> record = sagas_->load(checkout("O-1"));
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->version, active.version);
  EXPECT_EQ(record->updated_at, active.updated_at);
}

TEST_P(SagaList, FiltersByStatus) {
  start(checkout("A-1"));
  start(checkout("A-2"), 2);
  finish(checkout("C-1"));
  finish(checkout("C-2"));
  finish(checkout("C-3"));
  EXPECT_THAT(ids({.status = SagaStatus::kActive}),
              UnorderedElementsAreArray({checkout("A-1"), checkout("A-2")}));
  EXPECT_THAT(ids({.status = SagaStatus::kCompleted}),
              UnorderedElementsAreArray({checkout("C-1"), checkout("C-2"), checkout("C-3")}));
  EXPECT_EQ(ids({}).size(), 5U);
  // A saga completed since is listed as completed, no longer as active.
  sagas_->save(checkout("A-2"), 2, "done", SagaStatus::kCompleted).value_or_throw();
  EXPECT_THAT(ids({.status = SagaStatus::kActive}), UnorderedElementsAreArray({checkout("A-1")}));
}

TEST_P(SagaList, FiltersBySagaType) {
  start(saga("checkout", "O-1", "acme"));
  start(saga("shipping", "O-1", "acme"));
  finish(saga("shipping", "O-2", "acme"));
  start(saga("shipping", "O-3", "globex"));
  EXPECT_THAT(
      ids({.saga_type = "shipping"}),
      UnorderedElementsAreArray({saga("shipping", "O-1", "acme"), saga("shipping", "O-2", "acme"),
                                 saga("shipping", "O-3", "globex")}));
  EXPECT_THAT(ids({.status = SagaStatus::kActive, .saga_type = "shipping"}),
              UnorderedElementsAreArray(
                  {saga("shipping", "O-1", "acme"), saga("shipping", "O-3", "globex")}));
  EXPECT_THAT(ids({.saga_type = "checkout"}),
              UnorderedElementsAreArray({saga("checkout", "O-1", "acme")}));
  EXPECT_TRUE(ids({.saga_type = "refund"}).empty());
}

TEST_P(SagaList, ListsOneTenantOrEveryTenant) {
  start(checkout("O-1", "acme"));
  finish(checkout("O-2", "acme"));
  start(checkout("O-1", "globex"));
  start(checkout("O-9", "initech"));
  EXPECT_THAT(ids({.tenant = tenant("acme")}),
              UnorderedElementsAreArray({checkout("O-1", "acme"), checkout("O-2", "acme")}));
  EXPECT_THAT(ids({.tenant = tenant("globex")}),
              UnorderedElementsAreArray({checkout("O-1", "globex")}));
  EXPECT_THAT(ids({.tenant = tenant("acme"), .status = SagaStatus::kActive}),
              UnorderedElementsAreArray({checkout("O-1", "acme")}));
  EXPECT_THAT(ids({}),
              UnorderedElementsAreArray({checkout("O-1", "acme"), checkout("O-2", "acme"),
                                         checkout("O-1", "globex"), checkout("O-9", "initech")}));
  const SagaPage none = sagas_->list({.tenant = tenant("umbrella")});
  EXPECT_TRUE(none.sagas.empty());
  EXPECT_FALSE(none.next.has_value());
}

TEST_P(SagaList, ListsSagasLastUpdatedBeforeATime) {
  start(checkout("old-active"));
  finish(checkout("old-completed"));
  start(checkout("touched"));
  clock_.advance(std::chrono::minutes(10));
  const Timestamp cutoff = clock_.now();
  start(checkout("at-cutoff"));
  sagas_->save(checkout("touched"), 0, "again").value_or_throw();  // updated at the cutoff
  clock_.advance(std::chrono::minutes(10));
  start(checkout("new"));

  EXPECT_THAT(ids({.updated_before = cutoff}),
              UnorderedElementsAreArray({checkout("old-active"), checkout("old-completed")}));
  EXPECT_THAT(ids({.status = SagaStatus::kActive, .updated_before = cutoff}),
              UnorderedElementsAreArray({checkout("old-active")}));
  EXPECT_THAT(ids({.tenant = tenant("acme"),
                   .status = SagaStatus::kActive,
                   .saga_type = "checkout",
                   .updated_before = cutoff + std::chrono::microseconds(1)}),
              UnorderedElementsAreArray(
                  {checkout("old-active"), checkout("touched"), checkout("at-cutoff")}));
  EXPECT_TRUE(ids({.updated_before = start_}).empty());  // nothing before the first save
}

// Pages of every size, with and without filters (the update time filter among them,
// which some stores order by), hold every match once and nothing else.
TEST_P(SagaList, PagesHoldEveryMatchExactlyOnce) {
  std::vector<SagaId> every;
  std::vector<SagaId> active_acme;
  std::vector<SagaId> old;
  std::vector<SagaId> acme_checkout;
  std::vector<SagaId> shipping;
  for (int i = 0; i < 24; ++i) {
    const std::string tenant_name = i % 3 == 0 ? "acme" : i % 3 == 1 ? "globex" : "initech";
    const SagaId id =
        saga(i % 2 == 0 ? "checkout" : "shipping", "S-" + std::to_string(i), tenant_name);
    if (i % 4 == 3) {
      finish(id);
    } else {
      start(id, i % 5);
      if (tenant_name == "acme") {
        active_acme.push_back(id);
      }
    }
    every.push_back(id);
    if (id.saga_type() == "shipping") {
      shipping.push_back(id);
    } else if (tenant_name == "acme") {
      acme_checkout.push_back(id);
    }
    if (i < 15) {
      old.push_back(id);
    }
    if (i == 14) {
      clock_.advance(std::chrono::minutes(1));
    }
  }
  const Timestamp cutoff = clock_.now() - std::chrono::seconds(30);
  for (const std::size_t page_size : {1U, 2U, 5U, 7U, 24U, 25U}) {
    SCOPED_TRACE("page size " + std::to_string(page_size));
    EXPECT_THAT(ids({}, page_size), UnorderedElementsAreArray(every));
    EXPECT_THAT(ids({.tenant = tenant("acme"), .status = SagaStatus::kActive}, page_size),
                UnorderedElementsAreArray(active_acme));
    EXPECT_THAT(ids({.updated_before = cutoff}, page_size), UnorderedElementsAreArray(old));
    EXPECT_THAT(ids({.tenant = tenant("acme"), .saga_type = "checkout"}, page_size),
                UnorderedElementsAreArray(acme_checkout));
    EXPECT_THAT(ids({.saga_type = "shipping"}, page_size), UnorderedElementsAreArray(shipping));
  }
  // A full page is followed by more only while matches remain.
  const SagaPage first = sagas_->list({.limit = 24});
  EXPECT_EQ(first.sagas.size(), 24U);
  if (first.next) {
    EXPECT_TRUE(sagas_->list({.after = first.next, .limit = 24}).sagas.empty());
  }
}

TEST_P(SagaList, RefusesARequestItCannotServe) {
  start(checkout("O-1"));
  EXPECT_THROW(sagas_->list({.limit = 0}), InvalidInputError);
  EXPECT_THROW(sagas_->list({.limit = kMaxSagaPageSize + 1}), InvalidInputError);
  EXPECT_THROW(sagas_->list({.saga_type = ""}), InvalidInputError);
  EXPECT_THROW(sagas_->list({.saga_type = std::string(kMaxSagaTypeBytes + 1, 'x')}),
               InvalidInputError);
  EXPECT_THROW(sagas_->list({.saga_type = "\xff"}), InvalidInputError);
  EXPECT_THROW(sagas_->list({.tenant = tenant("globex"),
                             .after = SagaListPosition{.saga = checkout("O-1", "acme"),
                                                       .updated_at = clock_.now()}}),
               InvalidInputError);
  EXPECT_THROW(sagas_->list({.saga_type = "shipping",
                             .after = SagaListPosition{.saga = checkout("O-1"),
                                                       .updated_at = clock_.now()}}),
               InvalidInputError);
  EXPECT_EQ(sagas_->list({.limit = kMaxSagaPageSize}).sagas.size(), 1U);
}

INSTANTIATE_TEST_SUITE_P(Providers, SagaList, ::testing::ValuesIn(saga_providers()), provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
