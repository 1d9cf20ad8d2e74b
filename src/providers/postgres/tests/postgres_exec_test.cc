// Statements with parameters, typed results, SQLSTATE on failure, prepared statements.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/postgres/tests/postgres_fixture.h"

namespace docket::postgres::detail {
namespace {

using ::testing::HasSubstr;

class PostgresExecTest : public PostgresTest {
 protected:
  Connection conn_{url_};
};

TEST_F(PostgresExecTest, BindsTextIntegersBooleansAndReadsThemBack) {
  const std::string utf8 = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
  Result r = exec(conn_, "SELECT $1, $2, $3 + 1, $4, $5, length($1)", utf8, std::string_view("b"),
                  std::int64_t{41}, std::numeric_limits<std::int64_t>::min(), true);
  EXPECT_EQ(r.rows(), 1);
  EXPECT_EQ(r.text(0, 0), utf8);
  EXPECT_EQ(r.text(0, 1), "b");
  EXPECT_EQ(r.int64(0, 2), 42);
  EXPECT_EQ(r.int64(0, 3), std::numeric_limits<std::int64_t>::min());
  EXPECT_TRUE(r.boolean(0, 4));
  EXPECT_EQ(r.int64(0, 5), 8);
}

TEST_F(PostgresExecTest, EmptyStringIsNotNullAndEmptyOptionalIsATypedNull) {
  Result r = exec(conn_, "SELECT $1, $1 IS NULL, $2, pg_typeof($2)::text, $3::int IS NULL", "",
                  std::optional<std::int64_t>{}, std::nullopt);
  EXPECT_EQ(r.optional_text(0, 0), std::optional<std::string_view>(""));
  EXPECT_FALSE(r.boolean(0, 1));
  EXPECT_TRUE(r.is_null(0, 2));
  EXPECT_EQ(r.optional_int64(0, 2), std::nullopt);
  EXPECT_EQ(r.text(0, 3), "bigint");
  EXPECT_TRUE(r.boolean(0, 4));
  EXPECT_THROW(r.int64(0, 2), InvalidInputError);
  EXPECT_THROW(r.text(1, 0), InvalidInputError);
  EXPECT_THROW(r.column("nope"), InvalidInputError);
}

TEST_F(PostgresExecTest, ByteaRoundTripsAll256ByteValues) {
  std::vector<std::byte> bytes;
  for (int i = 0; i < 256; ++i) {
    bytes.push_back(static_cast<std::byte>(i));
  }
  exec(conn_, "CREATE TEMP TABLE blobs (id bigint PRIMARY KEY, body bytea)");
  exec(conn_, "INSERT INTO blobs VALUES ($1, $2)", 1, bytes);
  Result r = exec(conn_, "SELECT body, length(body) FROM blobs WHERE id = $1", 1);
  EXPECT_EQ(r.bytea(0, 0), bytes);
  EXPECT_EQ(r.int64(0, 1), 256);
  EXPECT_EQ(exec(conn_, "SELECT $1::bytea", std::vector<std::byte>{}).bytea(0, 0).size(), 0u);
}

TEST_F(PostgresExecTest, UniqueViolationIsDetectedBySqlstate) {
  exec(conn_, "CREATE TEMP TABLE seen (id text PRIMARY KEY)");
  EXPECT_EQ(exec(conn_, "INSERT INTO seen VALUES ($1)", "m-1").affected_rows(), 1);
  try {
    exec(conn_, "INSERT INTO seen VALUES ($1)", "m-1");
    FAIL() << "second insert succeeded";
  } catch (const PostgresError& error) {
    EXPECT_EQ(error.sqlstate(), "23505");
    EXPECT_TRUE(error.is_unique_violation());
    EXPECT_FALSE(error.is_transient_conflict());
    EXPECT_THAT(error.what(), HasSubstr("duplicate key"));
    EXPECT_THAT(error.what(), HasSubstr("INSERT INTO seen"));
  }
  Result r = try_exec(conn_, "INSERT INTO seen VALUES ($1)", "m-1");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.sqlstate(), sqlstate::kUniqueViolation);
  EXPECT_EQ(
      exec(conn_, "INSERT INTO seen VALUES ($1) ON CONFLICT DO NOTHING", "m-1").affected_rows(), 0);
}

TEST_F(PostgresExecTest, SyntaxErrorIsAPostgresErrorWithItsSqlstate) {
  try {
    exec(conn_, "SELEC 1");
    FAIL() << "bad SQL ran";
  } catch (const InfrastructureError& error) {
    EXPECT_EQ(dynamic_cast<const PostgresError&>(error).sqlstate(), "42601");
  }
}

TEST_F(PostgresExecTest, PreparesOncePerConnectionAndReusesByName) {
  exec(conn_, "CREATE TEMP TABLE seen (id text PRIMARY KEY, n bigint)");
  constexpr std::string_view kInsert = "INSERT INTO seen VALUES ($1, $2) ON CONFLICT DO NOTHING";
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(
        exec_prepared(conn_, "seen_insert", kInsert, "id-" + std::to_string(i), i).affected_rows(),
        1);
  }
  EXPECT_EQ(exec_prepared(conn_, "seen_insert", kInsert, "id-0", 9).affected_rows(), 0);
  Result prepared =
      exec(conn_, "SELECT count(*) FROM pg_prepared_statements WHERE name = $1", "seen_insert");
  EXPECT_EQ(prepared.int64(0, 0), 1);
  EXPECT_EQ(exec(conn_, "SELECT count(*) FROM seen").int64(0, 0), 3);
  // Same name, different SQL or parameter types: refused before reaching the server.
  EXPECT_THROW(exec_prepared(conn_, "seen_insert", "SELECT 1"), InvalidInputError);
  EXPECT_THROW(exec_prepared(conn_, "seen_insert", kInsert, "id-9", "not a number"),
               InvalidInputError);
  // A statement the server refuses is not remembered.
  EXPECT_THROW(exec_prepared(conn_, "broken", "SELEC 1"), PostgresError);
  EXPECT_EQ(conn_.find_prepared("broken"), nullptr);
}

std::int64_t cached_statements(Connection& conn) {
  return exec(conn, "SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'docket_c_%'")
      .int64(0, 0);
}

TEST_F(PostgresExecTest, CachedStatementsArePreparedOncePerTextAndTypes) {
  exec(conn_, "CREATE TEMP TABLE cached (id text PRIMARY KEY, n bigint)");
  constexpr std::string_view kInsert = "INSERT INTO cached VALUES ($1, $2)";
  for (int i = 0; i < 5; ++i) {
    const std::string id = "id-" + std::to_string(i);  // a Param views its text
    const std::array<Param, 2> params{to_param(id), to_param(i)};
    ASSERT_TRUE(try_exec_cached(conn_, kInsert, params).ok());
  }
  EXPECT_EQ(cached_statements(conn_), 1);
  // Other parameter types are another statement, prepared beside the first.
  const std::array<Param, 2> text_n{to_param("id-t"), Param::null()};
  ASSERT_TRUE(try_exec_cached(conn_, kInsert, text_n).ok());
  EXPECT_EQ(cached_statements(conn_), 2);
  EXPECT_EQ(exec(conn_, "SELECT count(*) FROM cached").int64(0, 0), 6);
  // A failure is returned as a Result, like try_exec, and the statement stays usable.
  const std::array<Param, 2> again{to_param("id-0"), to_param(9)};
  const Result duplicate = try_exec_cached(conn_, kInsert, again);
  EXPECT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.sqlstate(), "23505");
}

TEST_F(PostgresExecTest, CachedStatementsStopAtTheLimitAndThenRunUnprepared) {
  const std::int64_t before = static_cast<std::int64_t>(conn_.prepared_count());
  for (std::size_t i = 0; i < kMaxCachedStatements + 10; ++i) {
    const std::string sql = "SELECT " + std::to_string(i) + "::int8";
    const Result result = try_exec_cached(conn_, sql, {});
    ASSERT_TRUE(result.ok()) << sql;
    ASSERT_EQ(result.int64(0, 0), static_cast<std::int64_t>(i));
  }
  EXPECT_EQ(conn_.prepared_count(), kMaxCachedStatements);
  EXPECT_EQ(cached_statements(conn_), static_cast<std::int64_t>(kMaxCachedStatements) - before);
}

TEST_F(PostgresExecTest, ScriptRunsSeveralStatements) {
  exec_script(conn_, "CREATE TEMP TABLE a (x int); INSERT INTO a VALUES (1), (2);");
  EXPECT_EQ(exec(conn_, "SELECT sum(x) FROM a").int64(0, 0), 3);
}

TEST(PostgresParamTest, RefusesUnsignedValuesBeyondBigint) {
  EXPECT_THROW(to_param(std::numeric_limits<std::uint64_t>::max()), InvalidInputError);
  EXPECT_EQ(to_param(std::uint64_t{7}).type(), type_oid::kInt8);
  EXPECT_EQ(to_param("literal").type(), type_oid::kText);
  EXPECT_EQ(to_param(std::optional<bool>{}).type(), type_oid::kBoolean);
  EXPECT_TRUE(to_param(std::optional<bool>{}).is_null());
}

}  // namespace
}  // namespace docket::postgres::detail
