// The claim inbox schema's migration on SQLite: a database at version 1 (before claim
// ids) is brought to the current version, and its entries, in every state, still claim
// and mark; a claim taken before the upgrade (it has no claim id) is held until its
// lease ends, marked by no token, and then claimable as any other.
#include <gtest/gtest.h>

#include <chrono>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/sqlite/claim_inbox_store.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_claim_inbox_schema.h"
#include "providers/sqlite/sqlite_migration.h"

namespace docket::sqlite::detail {
namespace {

using std::chrono::seconds;

constexpr std::string_view kHandler = "billing.Invoice";

ClaimKey key_of(std::string_view message_id) {
  return ClaimKey(TenantId::untenanted(), message_id, kHandler);
}

TEST(SqliteClaimMigration, AVersionOneDatabaseIsMigratedAndItsEntriesStillClaimAndMark) {
  conformance::eventsourcing::TempDir dir;
  const std::string path = dir.file("claims.db");
  ManualClock clock(Timestamp{seconds(1000)});
  const std::int64_t now = kit::to_micros(clock.now());
  const std::int64_t live_until = kit::to_micros(clock.now() + seconds(30));
  {
    Connection v1(path, seconds(5));
    migrate_component(
        v1, SchemaComponent{kClaimInboxSchemaComponent, claim_inbox_migrations().first(1)});
    const std::string untenanted(TenantId::untenanted().value());
    const std::string handler(kHandler);
    const std::string insert =
        "INSERT INTO docket_claim_inbox (tenant, message_id, handler_type, status, retry_count, "
        "received_at, updated_at, owner, lease_until, last_error, next_attempt_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, 0, 0, ?6, ?7, ?8, ?9)";
    v1.exec(insert, {untenanted, std::string("m-received"), handler, std::string("received"),
                     std::int64_t{0}, nullptr, nullptr, nullptr, nullptr});
    v1.exec(insert, {untenanted, std::string("m-failed"), handler, std::string("failed"),
                     std::int64_t{1}, nullptr, nullptr, std::string("boom"), std::int64_t{0}});
    v1.exec(insert, {untenanted, std::string("m-expired"), handler, std::string("processing"),
                     std::int64_t{0}, std::string("old-worker"), now, nullptr, nullptr});
    v1.exec(insert, {untenanted, std::string("m-live"), handler, std::string("processing"),
                     std::int64_t{0}, std::string("old-worker"), live_until, nullptr, nullptr});
  }
  auto store = open_claim_inbox_store({.path = path}, clock);
  store->migrate();
  {
    Connection check(path, seconds(5));
    EXPECT_EQ(
        check.query("SELECT version FROM docket_schema_version WHERE component = 'claim_inbox'"),
        (std::vector<Row>{{static_cast<std::int64_t>(claim_inbox_migrations().size())}}));
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
}  // namespace docket::sqlite::detail
