// A saga's create on PostgreSQL that violates a unique index other than the saga's own
// key. Only another creator of the same saga is a conflict (a retry can win it, or load
// the winner); a unique index of the user's that the new row violates fails with the
// server's error and writes nothing. Answered with a conflict, it would name the very
// version the caller expected, and a caller that retries conflicts would go round for
// ever. Schema version 4 fixed it; a version 3 schema is migrated to it by the next store.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/conformance/postgres_unit_sql.h"
#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_eventsourcing_schema.h"
#include "providers/postgres/postgres_migration.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::conformance::eventsourcing::postgres_saga_failure_test {
namespace {

using ::testing::HasSubstr;

class PostgresSagaFailure : public ::testing::Test {
 protected:
  PostgresSagaFailure() : inbox_(postgres::open_store(schema_.url())) { inbox_->migrate(); }

  // A second saga with the first's state violates the user's index: the save must throw
  // the server's error naming it, and write nothing.
  void expect_the_users_index_refuses_a_create(SagaStore& sagas) {
    const SagaId first(TenantId("acme"), "checkout", "c-1");
    const SagaId second(TenantId("acme"), "checkout", "c-2");
    ASSERT_TRUE(sagas.save(first, kNewSaga, "same state").succeeded());
    try {
      const SagaSaveResult result = sagas.save(second, kNewSaga, "same state");
      ADD_FAILURE() << "the create was answered as "
                    << (result.succeeded() ? "saved" : "a conflict");
    } catch (const InfrastructureError& e) {
      EXPECT_THAT(e.what(), HasSubstr("users_one_saga_state"));
    }
    EXPECT_EQ(sagas.load(second), std::nullopt);
    // Another state creates it.
    EXPECT_TRUE(sagas.save(second, kNewSaga, "its own state").succeeded());
  }

  test_support::PostgresSchema schema_;
  std::unique_ptr<InboxStore> inbox_;
};

TEST_F(PostgresSagaFailure, AUniqueIndexOfTheUsersIsTheServersErrorNotAConflict) {
  auto sagas = postgres::open_saga_store({.conninfo = schema_.url()});
  exec_in_unit(*inbox_, "CREATE UNIQUE INDEX users_one_saga_state ON docket_sagas (state)");
  expect_the_users_index_refuses_a_create(*sagas);
}

TEST_F(PostgresSagaFailure, AVersionThreeSchemaIsMigratedToTheTargetedConflict) {
  {
    postgres::detail::Connection conn(schema_.url());
    const postgres::detail::SchemaComponent current =
        postgres::detail::eventsourcing_schema_component();
    postgres::detail::migrate_component(
        conn, postgres::detail::SchemaComponent{current.name, current.migrations.first(3)});
  }
  exec_in_unit(*inbox_, "CREATE UNIQUE INDEX users_one_saga_state ON docket_sagas (state)");
  auto sagas = postgres::open_saga_store({.conninfo = schema_.url()});
  expect_the_users_index_refuses_a_create(*sagas);
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::postgres_saga_failure_test
