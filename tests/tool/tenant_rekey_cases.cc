#include "tenant_rekey_cases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/core/uuid.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/sagas/saga_store.h"
#include "docket/stores/open_store.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kDefault = "__default__";

// A canonical UUIDv7 text, distinct per `n`.
std::string event_id(std::uint64_t n) {
  char text[40];
  std::snprintf(text, sizeof text, "0190a6c2-0000-7000-8000-%012llx",
                static_cast<unsigned long long>(n));
  return text;
}

std::vector<std::string> rekey_args(const LegacySeeder& seeder, std::string_view tenant,
                                    const std::vector<std::string>& more = {}) {
  std::vector<std::string> args{"migrate",    "tenant-rekey", "--store",
                                seeder.url(), "--tenant",     std::string(tenant)};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// The re-key's JSON report; fails the test unless it exits 0.
nlohmann::json rekey(const LegacySeeder& seeder, std::string_view tenant,
                     std::vector<std::string> more = {}) {
  more.push_back("--json");
  const ToolRun run = run_docket(rekey_args(seeder, tenant, more));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  return run.exit_code == 0 ? nlohmann::json::parse(run.out) : nlohmann::json::object();
}

// How many legacy records `docket migrate scan` finds.
std::uint64_t legacy_count(const LegacySeeder& seeder) {
  const ToolRun run = run_docket({"migrate", "scan", "--store", seeder.url(), "--json"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  return run.exit_code == 0 ? nlohmann::json::parse(run.out)["legacy"].get<std::uint64_t>() : 0;
}

ToolRun show_stream(const LegacySeeder& seeder, std::string_view tenant, std::string_view type,
                    std::string_view id) {
  return run_docket({"events", "show", "--store", seeder.url(), "--tenant", std::string(tenant),
                     "--aggregate-type", std::string(type), "--aggregate-id", std::string(id),
                     "--json"});
}

ToolRun show_saga(const LegacySeeder& seeder, std::string_view tenant, std::string_view type,
                  std::string_view id) {
  return run_docket({"sagas", "show", "--store", seeder.url(), "--tenant", std::string(tenant),
                     "--saga-type", std::string(type), "--saga-id", std::string(id), "--json"});
}

// The stream as `events show` prints it; fails the test unless it exits 0.
nlohmann::json stream_of(const LegacySeeder& seeder, std::string_view tenant, std::string_view type,
                         std::string_view id) {
  const ToolRun run = show_stream(seeder, tenant, type, id);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  return run.exit_code == 0 ? nlohmann::json::parse(run.out) : nlohmann::json::object();
}

// Seeds `count` legacy events of one stream, ids from `first_id`.
void put_stream(const LegacySeeder& seeder, std::string_view type, std::string_view id, int count,
                std::uint64_t first_id) {
  for (int v = 0; v < count; ++v) {
    seeder.put_event(type, id, v, event_id(first_id + static_cast<std::uint64_t>(v)),
                     "e" + std::to_string(v));
  }
}

}  // namespace

// Instantiated by each provider whose stores can hold legacy records, where it is built.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TenantRekey);

void LegacySeeder::put_event(std::string_view type, std::string_view id, std::int64_t version,
                             std::string_view event_id, std::string_view payload,
                             const std::optional<std::string>& tenant) const {
  write_event(legacy_event(type, id, version, event_id, payload, tenant), tenant.has_value());
}

RecordedEvent LegacySeeder::legacy_event(std::string_view type, std::string_view id,
                                         std::int64_t version, std::string_view event_id,
                                         std::string_view payload,
                                         const std::optional<std::string>& tenant) {
  return RecordedEvent{
      .stream = StreamId(TenantId::from_stored(tenant.value_or(std::string(kDefault))), type, id),
      .version = version,
      .global_position = 0,
      .event_id = Uuid::parse(event_id).value(),
      .type = "happened",
      .payload = std::string(payload),
      .metadata = {},
      .occurred_at = Timestamp(std::chrono::seconds(1'800'000'000))};
}

namespace {

SagaRecord active_saga(std::int64_t version, std::string_view state) {
  return SagaRecord{.version = version,
                    .state = std::string(state),
                    .status = SagaStatus::kActive,
                    .started_at = Timestamp(std::chrono::seconds(1'800'000'000)),
                    .updated_at = Timestamp(std::chrono::seconds(1'800'000'001)),
                    .completed_at = std::nullopt};
}

}  // namespace

void LegacySeeder::put_saga(std::string_view type, std::string_view id, std::int64_t version,
                            std::string_view state,
                            const std::optional<std::string>& tenant) const {
  write_saga(SagaId(TenantId::from_stored(tenant.value_or(std::string(kDefault))), type, id),
             tenant.has_value(), active_saga(version, state));
}

void LegacySeeder::put_event_naming(std::string_view own_tenant, std::string_view type,
                                    std::string_view id, std::int64_t version,
                                    std::string_view event_id) const {
  write_event_naming(legacy_event(type, id, version, event_id, "named", std::nullopt), own_tenant);
}

void LegacySeeder::put_saga_naming(std::string_view own_tenant, std::string_view type,
                                   std::string_view id, std::int64_t version,
                                   std::string_view state) const {
  write_saga_naming(SagaId(TenantId::default_tenant(), type, id), active_saga(version, state),
                    own_tenant);
}

void LegacySeeder::put_completed_saga(std::string_view type, std::string_view id,
                                      std::int64_t version, Timestamp completed_at) const {
  write_saga(SagaId(TenantId::default_tenant(), type, id), false,
             SagaRecord{.version = version,
                        .state = "done",
                        .status = SagaStatus::kCompleted,
                        .started_at = Timestamp(std::chrono::seconds(1'800'000'000)),
                        .updated_at = completed_at,
                        .completed_at = completed_at});
}

// Legacy streams (one past a provider's batch) and sagas are refused by events/sagas
// show; a dry run writes nothing; the re-key moves every record once, verifies, and
// the show commands answer with every event and the saga's version and state; a
// second run moves nothing.
TEST_P(TenantRekey, MovesEveryRecordAndShowAnswersAfter) {
  const LegacySeeder& seeder = *seeder_;
  put_stream(seeder, "order", "O-1", 60, 1000);  // past DynamoDB's 50 moves a transaction
  put_stream(seeder, "order", "O-2", 3, 2000);
  put_stream(seeder, "invoice", "I-1", 1, 3000);
  seeder.put_saga("checkout", "O-1", 3, "paid");
  seeder.put_saga("checkout", "O-2", 0, "new");
  ASSERT_EQ(legacy_count(seeder), 66u);

  // Before: the stores' guard refuses.
  const ToolRun refused = show_stream(seeder, kDefault, "order", "O-1");
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("carries no tenant segment"));
  EXPECT_EQ(show_saga(seeder, kDefault, "checkout", "O-1").exit_code, 1);

  const nlohmann::json dry = rekey(seeder, kDefault, {"--dry-run"});
  EXPECT_EQ(dry["streams"], 3) << dry.dump();
  EXPECT_EQ(dry["events"], 64) << dry.dump();
  EXPECT_EQ(dry["sagas"], 2) << dry.dump();
  EXPECT_EQ(legacy_count(seeder), 66u) << "a dry run writes nothing";

  const nlohmann::json report = rekey(seeder, kDefault);
  EXPECT_EQ(report["streams"], 3) << report.dump();
  EXPECT_EQ(report["events"], 64) << report.dump();
  EXPECT_EQ(report["sagas"], 2) << report.dump();
  EXPECT_EQ(report["events_already_moved"], 0) << report.dump();
  EXPECT_EQ(report["streams_verified"], 3) << report.dump();
  EXPECT_EQ(report["sagas_verified"], 2) << report.dump();
  EXPECT_EQ(legacy_count(seeder), 0u);

  // After: the same commands answer, with every event in order and the saga's state.
  const nlohmann::json o1 = stream_of(seeder, kDefault, "order", "O-1");
  ASSERT_EQ(o1["events"].size(), 60u) << o1.dump();
  for (std::size_t v = 0; v < 60; ++v) {
    EXPECT_EQ(o1["events"][v]["version"], v);
    EXPECT_EQ(o1["events"][v]["event_id"], event_id(1000 + v));
    EXPECT_EQ(o1["events"][v]["payload_text"], "e" + std::to_string(v));
  }
  EXPECT_EQ(stream_of(seeder, kDefault, "invoice", "I-1")["events"].size(), 1u);
  const ToolRun saga = show_saga(seeder, kDefault, "checkout", "O-1");
  ASSERT_EQ(saga.exit_code, 0) << describe(saga);
  const nlohmann::json shown = nlohmann::json::parse(saga.out);
  EXPECT_EQ(shown["saga"]["version"], 3) << saga.out;
  EXPECT_EQ(shown["saga"]["state_text"], "paid") << saga.out;
  // Another tenant sees none of it.
  EXPECT_TRUE(stream_of(seeder, "acme", "order", "O-1")["events"].empty());

  const nlohmann::json again = rekey(seeder, kDefault);
  EXPECT_EQ(again["events"], 0) << again.dump();
  EXPECT_EQ(again["sagas"], 0) << again.dump();
}

// A run killed (SIGKILL) after its first stream is finished by the next: every event
// and saga moved once.
TEST_P(TenantRekey, AKilledRunIsFinishedByTheNext) {
  const LegacySeeder& seeder = *seeder_;
  constexpr int kStreams = 60;
  for (int s = 0; s < kStreams; ++s) {
    put_stream(seeder, "order", "K-" + std::to_string(s), 2,
               10'000 + static_cast<std::uint64_t>(s) * 10);
  }
  for (int s = 0; s < 5; ++s) {
    seeder.put_saga("checkout", "K-" + std::to_string(s), s, "state-" + std::to_string(s));
  }
  // The log line of a stream is written once its records are moved: a real SIGKILL
  // right after the first one leaves the rest of the run undone.
  const ToolRun killed = run_docket_killed_at(rekey_args(seeder, kDefault), "moved stream");
  ASSERT_EQ(killed.exit_code, -1) << "the run ended before it was killed: " << describe(killed);
  const std::uint64_t left = legacy_count(seeder);
  EXPECT_LT(left, static_cast<std::uint64_t>(kStreams * 2 + 5)) << "the killed run moved nothing";

  const nlohmann::json finished = rekey(seeder, kDefault);
  EXPECT_LT(finished["streams"].get<int>(), kStreams) << finished.dump();
  // A record the killed run created but did not delete is still legacy, and the next
  // run only deletes it (already moved).
  EXPECT_EQ(finished["events"].get<std::uint64_t>() +
                finished["events_already_moved"].get<std::uint64_t>() +
                finished["sagas"].get<std::uint64_t>(),
            left)
      << finished.dump();
  if (seeder.moves_atomically()) {
    EXPECT_EQ(finished["events_already_moved"], 0) << "each batch moved whole: " << finished.dump();
  }
  // The verification covers every stream and saga the re-key moved, this run's and the
  // killed one's: the store's, not only what the last run moved.
  EXPECT_EQ(finished["streams_verified"], kStreams) << finished.dump();
  EXPECT_EQ(finished["sagas_verified"], 5) << finished.dump();
  EXPECT_EQ(legacy_count(seeder), 0u);
  // Every event and saga once, under the tenant.
  for (int s = 0; s < kStreams; ++s) {
    const nlohmann::json stream = stream_of(seeder, kDefault, "order", "K-" + std::to_string(s));
    ASSERT_EQ(stream["events"].size(), 2u) << stream.dump();
    EXPECT_EQ(stream["events"][1]["event_id"],
              event_id(10'000 + static_cast<std::uint64_t>(s) * 10 + 1));
  }
  for (int s = 0; s < 5; ++s) {
    const ToolRun saga = show_saga(seeder, kDefault, "checkout", "K-" + std::to_string(s));
    ASSERT_EQ(saga.exit_code, 0) << describe(saga);
    EXPECT_EQ(nlohmann::json::parse(saga.out)["saga"]["version"], s) << saga.out;
  }
}

// A stream left half moved (its first events under the tenant, the rest legacy, as a
// run killed between two batches of one stream leaves it) is finished, and verified
// whole: versions 0..n under the tenant, the export's last version and event ids.
TEST_P(TenantRekey, AHalfMovedStreamIsFinishedAndVerifiedWhole) {
  const LegacySeeder& seeder = *seeder_;
  for (int v = 0; v < 60; ++v) {
    const std::optional<std::string> tenant =
        v < 50 ? std::optional<std::string>(kDefault) : std::nullopt;
    seeder.put_event("order", "H-1", v, event_id(500 + static_cast<std::uint64_t>(v)),
                     "e" + std::to_string(v), tenant);
  }
  const nlohmann::json report = rekey(seeder, kDefault);
  EXPECT_EQ(report["streams"], 1) << report.dump();
  EXPECT_EQ(report["events"], 10) << report.dump();
  EXPECT_EQ(report["streams_verified"], 1) << report.dump();
  const nlohmann::json stream = stream_of(seeder, kDefault, "order", "H-1");
  ASSERT_EQ(stream["events"].size(), 60u) << stream.dump();
  EXPECT_EQ(stream["events"][59]["event_id"], event_id(559));
  EXPECT_EQ(legacy_count(seeder), 0u);
}

// A stream that loads under the tenant with more than the export (an event appended
// under the tenant beyond the legacy ones) fails the verification: exit 1 naming the
// stream and what was found.
TEST_P(TenantRekey, TheVerificationReportsAStreamUnlikeItsExport) {
  const LegacySeeder& seeder = *seeder_;
  seeder.put_event("order", "V-1", 0, event_id(1), "a");
  seeder.put_event("order", "V-1", 1, event_id(2), "b", std::string(kDefault));
  const ToolRun run = run_docket(rekey_args(seeder, kDefault));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("stream order / V-1"));
  EXPECT_THAT(run.err, HasSubstr("found 2 events, not the export's last version 0"));
  EXPECT_EQ(legacy_count(seeder), 0u) << "the record itself was moved";
}

// A completed legacy saga moves completed, and the saga store's purge finds it under
// the tenant and across tenants (the attributes or fields its indexes read are set).
TEST_P(TenantRekey, ACompletedSagaMovesAndIsPurgedUnderTheTenant) {
  const LegacySeeder& seeder = *seeder_;
  const Timestamp completed_at(std::chrono::seconds(1'800'000'002));
  seeder.put_completed_saga("checkout", "C-1", 2, completed_at);
  EXPECT_EQ(rekey(seeder, kDefault)["sagas"], 1);
  const ToolRun shown = show_saga(seeder, kDefault, "checkout", "C-1");
  ASSERT_EQ(shown.exit_code, 0) << describe(shown);
  EXPECT_EQ(nlohmann::json::parse(shown.out)["saga"]["status"], "completed") << shown.out;

  const auto store = open_saga_store(seeder.url());
  const Timestamp cutoff = completed_at + std::chrono::seconds(1);
  EXPECT_EQ(store->purge_completed(cutoff, 100, TenantId("acme")), 0u);
  EXPECT_EQ(store->purge_completed(cutoff, 100, TenantId::default_tenant()), 1u);
  seeder.put_completed_saga("checkout", "C-2", 0, completed_at);
  EXPECT_EQ(rekey(seeder, kDefault)["sagas"], 1);
  EXPECT_EQ(store->purge_completed(cutoff, 100), 1u) << "across tenants";
}

// A new key holding the same record: the old one is only deleted (counted as already
// moved). A new key holding another record: exit 1 naming both keys, nothing more
// written.
TEST_P(TenantRekey, ATakenNewKeyIsResumedOrRefused) {
  const LegacySeeder& seeder = *seeder_;
  // T-1 at version 0 was copied already (the same record under the new key).
  seeder.put_event("order", "T-1", 0, event_id(1), "x");
  seeder.put_event("order", "T-1", 0, event_id(1), "x", std::string(kDefault));
  seeder.put_event("order", "T-1", 1, event_id(2), "y");
  const nlohmann::json resumed = rekey(seeder, kDefault);
  EXPECT_EQ(resumed["events"], 1) << resumed.dump();
  EXPECT_EQ(resumed["events_already_moved"], 1) << resumed.dump();
  EXPECT_EQ(resumed["streams_verified"], 1) << resumed.dump();
  EXPECT_EQ(stream_of(seeder, kDefault, "order", "T-1")["events"].size(), 2u);
  EXPECT_EQ(legacy_count(seeder), 0u);

  // T-2's new key holds another event: refused naming both keys; the saga after it
  // is not moved.
  seeder.put_event("order", "T-2", 0, event_id(3), "mine");
  seeder.put_event("order", "T-2", 0, event_id(4), "other", std::string(kDefault));
  seeder.put_saga("checkout", "T-2", 1, "s");
  const ToolRun conflict = run_docket(rekey_args(seeder, kDefault));
  EXPECT_EQ(conflict.exit_code, 1) << describe(conflict);
  EXPECT_THAT(conflict.err, HasSubstr("'order:T-2"));
  EXPECT_THAT(conflict.err, HasSubstr("re-keys to 't:__default__:order:T-2"));
  EXPECT_THAT(conflict.err, HasSubstr("holds a different record"));
  EXPECT_EQ(legacy_count(seeder), 2u) << "nothing more written";
}

// A blank tenant, and a tenant neither sentinel nor present without --yes, are refused
// writing nothing; --yes, or a tenant the store holds already, goes ahead.
TEST_P(TenantRekey, TheTenantIsCheckedBeforeAnythingIsWritten) {
  const LegacySeeder& seeder = *seeder_;
  seeder.put_event("order", "G-1", 0, event_id(1), "x");
  const ToolRun blank = run_docket(rekey_args(seeder, "  "));
  EXPECT_EQ(blank.exit_code, 1) << describe(blank);
  EXPECT_THAT(blank.err, HasSubstr("--tenant"));

  for (const std::vector<std::string>& more :
       {std::vector<std::string>{}, std::vector<std::string>{"--dry-run"}}) {
    const ToolRun unknown = run_docket(rekey_args(seeder, "acme", more));
    EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
    EXPECT_THAT(unknown.err, HasSubstr("'__default__'"));
    EXPECT_THAT(unknown.err, HasSubstr("'__untenanted__'"));
    EXPECT_THAT(unknown.err, HasSubstr("--yes"));
    EXPECT_THAT(unknown.err, HasSubstr("mistyped"));
    EXPECT_EQ(unknown.out, "");
  }
  EXPECT_EQ(legacy_count(seeder), 1u) << "refusals write nothing";

  // A tenant the store holds already needs no --yes.
  seeder.put_event("order", "other", 0, event_id(2), "z", std::string("globex"));
  EXPECT_EQ(rekey(seeder, "globex")["events"], 1);
  EXPECT_EQ(stream_of(seeder, "globex", "order", "G-1")["events"].size(), 1u);

  seeder.put_event("order", "G-2", 0, event_id(3), "x");
  EXPECT_EQ(rekey(seeder, "acme", {"--yes"})["events"], 1);
  EXPECT_EQ(stream_of(seeder, "acme", "order", "G-2")["events"].size(), 1u);
  EXPECT_EQ(legacy_count(seeder), 0u);
}

// A legacy stream key whose raw terms hold ':' more than once is refused, listing it,
// nothing written; the one --aggregate-type that fits it splits it.
TEST_P(TenantRekey, AnAmbiguousStreamKeyIsRefusedUnlessItsTypeIsNamed) {
  const LegacySeeder& seeder = *seeder_;
  seeder.put_event("order", "a:b", 0, event_id(1), "x");  // stored as order:a:b
  seeder.put_event("order", "P-1", 0, event_id(2), "y");
  const ToolRun refused = run_docket(rekey_args(seeder, kDefault));
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("'order:a:b"));
  EXPECT_THAT(refused.err, HasSubstr("cannot be told apart"));
  EXPECT_THAT(refused.err, HasSubstr("--aggregate-type"));
  EXPECT_THAT(refused.err, HasSubstr("nothing was written"));
  EXPECT_EQ(legacy_count(seeder), 2u) << "not even the plain stream moves";

  // Two named types that both fit: still refused.
  const ToolRun both = run_docket(
      rekey_args(seeder, kDefault, {"--aggregate-type", "order", "--aggregate-type", "order:a"}));
  EXPECT_EQ(both.exit_code, 1) << describe(both);
  EXPECT_THAT(both.err, HasSubstr("more than one"));
  EXPECT_EQ(legacy_count(seeder), 2u);

  const nlohmann::json report = rekey(seeder, kDefault, {"--aggregate-type", "order"});
  EXPECT_EQ(report["events"], 2) << report.dump();
  const nlohmann::json stream = stream_of(seeder, kDefault, "order", "a:b");
  ASSERT_EQ(stream["events"].size(), 1u) << stream.dump();
  EXPECT_EQ(stream["events"][0]["event_id"], event_id(1));
}

// A record whose own tenant field (attribute) names another tenant than --tenant is
// refused, events as sagas, nothing written; --only-named re-keys a tenant's own
// records alone, leaving the untenanted ones for the run under their tenant.
TEST_P(TenantRekey, ARecordNamingAnotherTenantIsRefusedAndOnlyNamedReKeysItsOwn) {
  const LegacySeeder& seeder = *seeder_;
  seeder.put_event_naming("globex", "order", "N-1", 0, event_id(1));
  seeder.put_event_naming("globex", "order", "N-1", 1, event_id(2));
  seeder.put_saga_naming("globex", "checkout", "N-1", 1, "named");
  seeder.put_event("order", "U-1", 0, event_id(3), "untenanted");
  const ToolRun refused = run_docket(rekey_args(seeder, kDefault));
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("names the tenant 'globex' in its own"));
  EXPECT_THAT(refused.err, HasSubstr("--only-named"));
  EXPECT_THAT(refused.err, HasSubstr("nothing was written"));
  EXPECT_EQ(legacy_count(seeder), 4u);

  // globex's own records, and nothing else; globex needs no --yes: its records name it.
  const nlohmann::json own = rekey(seeder, "globex", {"--only-named"});
  EXPECT_EQ(own["events"], 2) << own.dump();
  EXPECT_EQ(own["sagas"], 1) << own.dump();
  EXPECT_EQ(legacy_count(seeder), 1u) << "the untenanted record is left alone";
  EXPECT_EQ(stream_of(seeder, "globex", "order", "N-1")["events"].size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(
                show_saga(seeder, "globex", "checkout", "N-1").out)["saga"]["state_text"],
            "named");

  const nlohmann::json rest = rekey(seeder, kDefault);
  EXPECT_EQ(rest["events"], 1) << rest.dump();
  EXPECT_EQ(legacy_count(seeder), 0u);
  EXPECT_EQ(stream_of(seeder, kDefault, "order", "U-1")["events"].size(), 1u);
  EXPECT_TRUE(stream_of(seeder, kDefault, "order", "N-1")["events"].empty());
}

// A legacy stream is named once, however many events it holds: `migrate scan` lists
// one example a stream (and counts every record), and the refusal of an ambiguous key
// one line a stream, with its event count.
TEST_P(TenantRekey, ScanAndRefusalNameEachStreamOnce) {
  const LegacySeeder& seeder = *seeder_;
  put_stream(seeder, "order", "a:b", 3, 100);  // stored as order:a:b, ambiguous
  put_stream(seeder, "order", "P-1", 4, 200);
  const ToolRun scan = run_docket({"migrate", "scan", "--store", seeder.url(), "--json"});
  ASSERT_EQ(scan.exit_code, 0) << describe(scan);
  const nlohmann::json events = nlohmann::json::parse(scan.out)["places"][0];
  EXPECT_EQ(events["legacy"], 7) << scan.out;
  std::vector<std::string> examples = events["examples"].get<std::vector<std::string>>();
  std::sort(examples.begin(), examples.end());
  ASSERT_EQ(examples.size(), 2u) << scan.out;
  EXPECT_THAT(examples[0], ::testing::StartsWith("order:P-1"));
  EXPECT_THAT(examples[1], ::testing::StartsWith("order:a:b"));

  const ToolRun refused = run_docket(rekey_args(seeder, kDefault));
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  std::size_t naming = 0;
  std::istringstream lines(refused.err);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("order:a:b") != std::string::npos) {
      ++naming;
      EXPECT_THAT(line, HasSubstr("3 event"));
    }
  }
  EXPECT_EQ(naming, 1u) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("1 legacy stream cannot be re-keyed"));
}

// A run killed mid-stream (a real SIGKILL once the first atomic write of a 1,000-event
// stream is logged) leaves that stream half moved, and the re-key's marker: until the
// re-key has finished and verified, no store reads or writes a stream or saga of the
// store. `events show` of the half-moved stream (which would load the moved part as
// the whole stream), of a stream not reached yet and `sagas show` refuse, naming the
// re-key and how to resume it; an append through a store opened anew is refused and
// writes nothing. The re-key resumed finishes, verifies every stream under the tenant
// and removes the marker: the stream loads whole, and the refusals are gone.
TEST_P(TenantRekey, AStreamHalfMovedByAKilledRunIsRefusedUntilTheReKeyFinishes) {
  const LegacySeeder& seeder = *seeder_;
  constexpr int kEvents = 1000;
  put_stream(seeder, "order", "H-1", kEvents, 100'000);
  put_stream(seeder, "order", "H-2", 2, 200'000);
  seeder.put_saga("checkout", "H-1", 1, "s");
  const ToolRun killed =
      run_docket_killed_at(rekey_args(seeder, kDefault), "moving stream order / H-1: ");
  ASSERT_EQ(killed.exit_code, -1) << "the run ended before it was killed: " << describe(killed);
  const std::uint64_t left = legacy_count(seeder);
  ASSERT_GT(left, 3u) << "the stream was moved whole before the kill landed";
  ASSERT_LT(left, static_cast<std::uint64_t>(kEvents + 3)) << "the killed run moved nothing";

  const auto refuses = [&](const ToolRun& run) {
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    EXPECT_THAT(run.err, HasSubstr("a tenant re-key under tenant '__default__'"));
    EXPECT_THAT(run.err, HasSubstr("is running on this store, or was interrupted"));
    EXPECT_THAT(run.err, HasSubstr("docket migrate tenant-rekey --store"));
    EXPECT_EQ(run.out, "") << "nothing loaded";
  };
  refuses(show_stream(seeder, kDefault, "order", "H-1"));
  refuses(show_stream(seeder, kDefault, "order", "H-2"));
  refuses(show_stream(seeder, "acme", "order", "H-1"));
  refuses(show_saga(seeder, kDefault, "checkout", "H-1"));
  {
    const auto events = open_event_store(seeder.url());
    EXPECT_THROW(events->append(StreamId(TenantId::default_tenant(), "order", "H-1"),
                                ExpectedVersion::any(), {NewEvent{.type = "forked"}}),
                 LegacyDataError);
    EXPECT_THROW(events->load(StreamId(TenantId::default_tenant(), "order", "H-1")),
                 LegacyDataError)
        << "the refusal is kept, not probed away";
  }

  // What the resumed run finds, read again now: a write the killed run had sent may
  // have landed on the server after the kill, and after the first count.
  const std::uint64_t found = legacy_count(seeder);
  EXPECT_LE(found, left);
  const nlohmann::json finished = rekey(seeder, kDefault);
  EXPECT_EQ(finished["events"].get<std::uint64_t>() +
                finished["events_already_moved"].get<std::uint64_t>() +
                finished["sagas"].get<std::uint64_t>(),
            found)
      << finished.dump();
  EXPECT_EQ(finished["streams_verified"], 2) << finished.dump();
  EXPECT_EQ(finished["sagas_verified"], 1) << finished.dump();
  EXPECT_EQ(legacy_count(seeder), 0u);
  const nlohmann::json whole = stream_of(seeder, kDefault, "order", "H-1");
  ASSERT_EQ(whole["events"].size(), static_cast<std::size_t>(kEvents)) << "nothing forked it";
  for (std::size_t v = 0; v < static_cast<std::size_t>(kEvents); ++v) {
    ASSERT_EQ(whole["events"][v]["event_id"], event_id(100'000 + v)) << v;
  }
  EXPECT_EQ(show_saga(seeder, kDefault, "checkout", "H-1").exit_code, 0);
}

}  // namespace docket::testing
