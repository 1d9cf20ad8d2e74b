// The PostgreSQL schema migration helper against the real server.
#include "providers/postgres/postgres_migration.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/tests/postgres_env.h"
#include "support/unique_name.h"

namespace docket::postgres::detail {
namespace {

std::int64_t recorded_version(Connection& conn, const std::string& component) {
  const Result r =
      exec(conn, "SELECT version FROM docket_schema_version WHERE component = $1", component);
  return r.rows() == 0 ? 0 : r.int64(0, 0);
}

TEST(PostgresMigrationTest, AppliesOnlyMissingScriptsAndRecordsTheVersion) {
  Connection conn(test_support::postgres_test_url());
  const std::string component = test_support::unique_name("migration_component");
  const std::string table = test_support::unique_name("migration_table");
  const std::string v1 = "CREATE TABLE " + table + " (id BIGINT PRIMARY KEY)";
  const std::string v2 = "ALTER TABLE " + table + " ADD COLUMN note TEXT";
  const std::array<const char*, 1> first{v1.c_str()};
  const std::array<const char*, 2> both{v1.c_str(), v2.c_str()};

  migrate_component(conn, SchemaComponent{component, first});
  EXPECT_EQ(recorded_version(conn, component), 1);
  migrate_component(conn, SchemaComponent{component, first});  // idempotent
  migrate_component(conn, SchemaComponent{component, both});   // v1 is not re-run
  EXPECT_EQ(recorded_version(conn, component), 2);
  exec(conn, "INSERT INTO " + table + " (id, note) VALUES (1, 'x')");
  exec_script(conn, "DROP TABLE " + table);
}

TEST(PostgresMigrationTest, RefusesANewerRecordedVersionAndChangesNothing) {
  Connection conn(test_support::postgres_test_url());
  const std::string component = test_support::unique_name("migration_newer");
  const std::array<const char*, 2> two{"SELECT 1", "SELECT 2"};
  migrate_component(conn, SchemaComponent{component, two});
  const std::array<const char*, 1> one{"SELECT 1"};
  try {
    migrate_component(conn, SchemaComponent{component, one});
    FAIL() << "a newer schema version must be refused";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("newer than version 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(recorded_version(conn, component), 2);
}

TEST(PostgresMigrationTest, ConcurrentMigrationsRunEachScriptOnce) {
  const std::string component = test_support::unique_name("migration_race");
  const std::string table = test_support::unique_name("migration_race_table");
  // Not idempotent on purpose: a second run would fail with "already exists".
  const std::string v1 = "CREATE TABLE " + table + " (id BIGINT)";
  const std::array<const char*, 1> scripts{v1.c_str()};
  constexpr int kThreads = 6;
  std::barrier start(kThreads);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&] {
      Connection conn(test_support::postgres_test_url());
      start.arrive_and_wait();
      try {
        migrate_component(conn, SchemaComponent{component, scripts});
      } catch (...) {
        ++failures;
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  EXPECT_EQ(failures.load(), 0);
  Connection conn(test_support::postgres_test_url());
  EXPECT_EQ(recorded_version(conn, component), 1);
  exec_script(conn, "DROP TABLE " + table);
}

}  // namespace
}  // namespace docket::postgres::detail
