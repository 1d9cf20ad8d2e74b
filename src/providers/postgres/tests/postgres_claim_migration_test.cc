// The claim inbox schema's migration on PostgreSQL: a schema at version 1 (before claim
// ids) is brought to the current version, and its entries, in every state, still claim
// and mark; a claim taken before the upgrade (it has no claim id) is held until its
// lease ends, marked by no token, and then claimable as any other.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

#include "docket/postgres/claim_inbox_store.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_claim_inbox_schema.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_migration.h"
#include "providers/postgres/postgres_timestamp_sql.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::detail {
namespace {

using std::chrono::seconds;

constexpr std::string_view kHandler = "billing.Invoice";

ClaimKey key_of(std::string_view message_id) {
  return ClaimKey(TenantId::untenanted(), message_id, kHandler);
}

TEST(PostgresClaimMigration, AVersionOneSchemaIsMigratedAndItsEntriesStillClaimAndMark) {
  const test_support::PostgresSchema schema;
  ManualClock clock(Timestamp{seconds(1000)});
  const std::int64_t now = kit::to_micros(clock.now());
  const std::int64_t live_until = kit::to_micros(clock.now() + seconds(30));
  const std::optional<std::string> no_text;
  const std::optional<std::int64_t> no_time;
  {
    Connection v1(schema.url());
    const SchemaComponent current = claim_inbox_schema();
    migrate_component(v1, SchemaComponent{current.name, current.migrations.first(1)});
    const std::string untenanted(TenantId::untenanted().value());
    const std::string insert =
        "INSERT INTO docket_claim_inbox (tenant, message_id, handler_type, status, retry_count, "
        "received_at, updated_at, owner, lease_until, last_error, next_attempt_at) "
        "VALUES ($1, $2, $3, $4, $5, to_timestamp(0), to_timestamp(0), $6, " DOCKET_TS(
            "$7") ", $8, " DOCKET_TS("$9") ")";
    exec(v1, insert, untenanted, "m-received", kHandler, "received", 0, no_text, no_time, no_text,
         no_time);
    exec(v1, insert, untenanted, "m-failed", kHandler, "failed", 1, no_text, no_time,
         std::optional<std::string>("boom"), std::optional<std::int64_t>(0));
    exec(v1, insert, untenanted, "m-expired", kHandler, "processing", 0,
         std::optional<std::string>("old-worker"), std::optional(now), no_text, no_time);
    exec(v1, insert, untenanted, "m-live", kHandler, "processing", 0,
         std::optional<std::string>("old-worker"), std::optional(live_until), no_text, no_time);
  }
  auto store = open_claim_inbox_store(StoreOptions{.conninfo = schema.url()}, clock);
  store->migrate();
  {
    Connection check(schema.url());
    const Result version =
        exec(check, "SELECT version FROM docket_schema_version WHERE component = 'claim_inbox'");
    ASSERT_EQ(version.rows(), 1);
    EXPECT_EQ(version.int64(0, 0), claim_inbox_schema().version());
  }
  const std::optional<ClaimEntry> held = store->find(key_of("m-live"));
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->owner, "old-worker");
  EXPECT_EQ(held->claim_id, std::nullopt);

  const ClaimResult received = store->try_claim(key_of("m-received"), "w", seconds(10));
  ASSERT_EQ(received.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(store->find(key_of("m-received"))->claim_id, received.token.claim_id);
  EXPECT_TRUE(store->mark_processed(key_of("m-received"), received.token));
  EXPECT_EQ(store->find(key_of("m-received"))->claim_id, std::nullopt);

  const ClaimResult failed = store->try_claim(key_of("m-failed"), "w", seconds(10));
  ASSERT_EQ(failed.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(failed.retry_count, 1U);
  EXPECT_TRUE(store->mark_failed(key_of("m-failed"), failed.token,
                                 {.error = "again", .next_attempt_at = clock.now()}));
  EXPECT_EQ(store->find(key_of("m-failed"))->retry_count, 2U);

  const ClaimResult expired = store->try_claim(key_of("m-expired"), "w", seconds(10));
  ASSERT_EQ(expired.outcome, ClaimOutcome::kClaimed);
  EXPECT_TRUE(store->release(key_of("m-expired"), expired.token));

  EXPECT_EQ(store->try_claim(key_of("m-live"), "w", seconds(10)).outcome,
            ClaimOutcome::kHeldByAnother);
  EXPECT_FALSE(store->mark_processed(key_of("m-live"), {.owner = "old-worker", .claim_id = "x"}));
  clock.advance(seconds(30));
  const ClaimResult taken = store->try_claim(key_of("m-live"), "w", seconds(10));
  ASSERT_EQ(taken.outcome, ClaimOutcome::kClaimed);
  EXPECT_TRUE(store->mark_processed(key_of("m-live"), taken.token));
}

}  // namespace
}  // namespace docket::postgres::detail
