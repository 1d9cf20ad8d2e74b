// docket outbox list, replay and skip on a real outbox, on every provider of the build
// that offers one and registers a scratch database (tests/support/scratch_database.h).
// The messages are staged through the store and relayed by a real Relay: parked ones
// through an in-process transport that refuses them (unroutable destinations, a size
// limit) with max_attempts 1, done ones through the same transport where it accepts
// them; pending ones are staged after the relay ran, or held behind a parked message
// of their ordering key. The tool runs as a child process; what it changed is read
// back through the store.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"
#include "scratch_stores.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace outbox_command_test {

// The scratch databases of the providers that offer an outbox.
std::vector<test_support::ScratchDatabaseCase> stores() {
  return scratch_databases_offering(
      [](const providers::ProviderRegistration& provider) { return provider.outbox != nullptr; });
}

// A relay that gives up at the first failure: a refused message is parked at once.
RelayOptions one_attempt() {
  return RelayOptions({.poll_interval = std::chrono::milliseconds(10), .max_attempts = 1});
}

// What the transport refuses: these destinations (unroutable), and payloads over 64
// bytes (refused for good).
InProcessRouting refusing_routes() {
  return {.unroutable = {"nowhere", "void"}, .max_message_bytes = 64};
}

}  // namespace outbox_command_test

class OutboxCommandTest : public ::testing::TestWithParam<test_support::ScratchDatabaseCase> {
 protected:
  void SetUp() override {
    database_ = GetParam().make();
    url_ = database_->url();
    store_ = open_outbox_store(url_);
  }

  // Stages one message for `tenant` in a unit of its own, through an outbox whose clock
  // reads `clock`; returns its id.
  std::string stage(const char* tenant, OutboxMessage message,
                    const Clock& clock = SystemClock::instance()) {
    const TenantScope scope{TenantId(tenant)};
    const Outbox outbox(*store_, clock);
    auto unit = store_->begin();
    const Uuid id = outbox.stage(unit->handler_transaction(), message);
    unit->commit();
    return id.to_string();
  }

  // Relays every due message once through a transport that refuses the routes above.
  void relay_once() {
    InProcessTransport transport(1000, {}, outbox_command_test::refusing_routes());
    Relay relay(*store_, transport, outbox_command_test::one_attempt());
    relay.drain();
  }

  // Relays every due message through a transport that accepts all of them.
  void relay_accepting() {
    InProcessTransport transport(1000);
    Relay relay(*store_, transport, outbox_command_test::one_attempt());
    relay.drain();
  }

  // One message in every status: four parked (one staged ten days ago), one done, and
  // two pending, one of them held behind the parked message of its ordering key.
  void write_messages() {
    const ManualClock ten_days_ago(SystemClock::instance().now() - std::chrono::hours(240));
    old_ = stage("acme", {.event_type = "OrderPlaced", .payload = "{}", .destination = "nowhere"},
                 ten_days_ago);
    keyed_ = stage("acme", {.event_type = "OrderPlaced",
                            .payload = "{}",
                            .destination = "nowhere",
                            .ordering_key = "order-7"});
    void_ = stage("globex", {.event_type = "OrderShipped", .payload = "{}", .destination = "void"});
    big_ = stage(
        "globex",
        {.event_type = "OrderPlaced", .payload = std::string(100, 'x'), .destination = "orders"});
    done_ = stage("acme", {.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});
    relay_once();
    pending_ = stage("acme", {.event_type = "OrderPlaced", .payload = "{}"});
    held_ = stage("acme", {.event_type = "OrderPaid",
                           .payload = "{}",
                           .destination = "orders",
                           .ordering_key = "order-7"});
    ASSERT_EQ(statuses(), expected_after_writing());
  }

  std::map<std::string, OutboxStatus> expected_after_writing() const {
    return {{old_, OutboxStatus::kParked},  {keyed_, OutboxStatus::kParked},
            {void_, OutboxStatus::kParked}, {big_, OutboxStatus::kParked},
            {done_, OutboxStatus::kDone},   {pending_, OutboxStatus::kPending},
            {held_, OutboxStatus::kPending}};
  }

  // The status of each message `ids` names (default: the ones write_messages staged),
  // read through the store.
  std::map<std::string, OutboxStatus> statuses(std::set<std::string> ids = {}) {
    if (ids.empty()) {
      for (const auto& [id, status] : expected_after_writing()) {
        ids.insert(id);
      }
    }
    std::map<std::string, OutboxStatus> out;
    for (const std::string& id : ids) {
      const std::optional<OutboxRecord> record = store_->find(id);
      EXPECT_TRUE(record.has_value()) << id;
      if (record) {
        out[id] = record->status;
      }
    }
    return out;
  }

  ToolRun docket(const std::string& command, std::vector<std::string> options) {
    std::vector<std::string> args{"outbox", command, "--store", url_};
    args.insert(args.end(), options.begin(), options.end());
    return run_docket(args);
  }

  // The ids `outbox list --json` prints with `options`, in its order.
  std::vector<std::string> listed(std::vector<std::string> options) {
    options.insert(options.begin(), {"--status", "parked", "--json"});
    const ToolRun run = docket("list", options);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    std::vector<std::string> ids;
    if (run.exit_code != 0) {
      return ids;
    }
    const nlohmann::json shown = nlohmann::json::parse(run.out);
    for (const nlohmann::json& message : shown["messages"]) {
      ids.push_back(message["id"].get<std::string>());
    }
    return ids;
  }

  std::unique_ptr<test_support::ScratchDatabase> database_;
  std::string url_;
  std::unique_ptr<OutboxStore> store_;
  std::string old_, keyed_, void_, big_, done_, pending_, held_;
};

TEST_P(OutboxCommandTest, ListShowsExactlyTheParkedMessagesAndTheFiltersNarrowThem) {
  write_messages();

  const ToolRun all = docket("list", {"--status", "parked", "--json"});
  ASSERT_EQ(all.exit_code, 0) << describe(all);
  const nlohmann::json shown = nlohmann::json::parse(all.out);
  EXPECT_EQ(shown["count"], 4);
  EXPECT_EQ(shown["more"], false);
  EXPECT_EQ(shown["status"], "parked");
  std::vector<std::string> ids;
  for (const nlohmann::json& message : shown["messages"]) {
    ids.push_back(message["id"].get<std::string>());
  }
  EXPECT_THAT(ids, ElementsAre(old_, keyed_, void_, big_));  // in staging order
  const nlohmann::json& keyed = shown["messages"][1];
  EXPECT_EQ(keyed["tenant"], "acme");
  EXPECT_EQ(keyed["destination"], "nowhere");
  EXPECT_EQ(keyed["ordering_key"], "order-7");
  EXPECT_EQ(keyed["event_type"], "OrderPlaced");
  EXPECT_EQ(keyed["status"], "parked");
  EXPECT_EQ(keyed["attempts"], 1);
  EXPECT_THAT(keyed["last_error"].get<std::string>(), HasSubstr("unroutable: "));
  EXPECT_TRUE(keyed["created_at"].is_string());
  EXPECT_TRUE(keyed["last_attempt_due_at"].is_string());
  EXPECT_EQ(shown["messages"][2]["ordering_key"], nullptr);

  EXPECT_THAT(listed({"--error-like", "refused for good"}), ElementsAre(big_));
  EXPECT_THAT(listed({"--error-like", "UNROUTABLE"}), ElementsAre());  // case-sensitive
  EXPECT_THAT(listed({"--error-like", "'void'"}), ElementsAre(void_));
  EXPECT_THAT(listed({"--destination", "nowhere"}), ElementsAre(old_, keyed_));
  // The done and the pending message published to "orders" are not parked.
  EXPECT_THAT(listed({"--destination", "orders"}), ElementsAre(big_));
  EXPECT_THAT(listed({"--since", "1d"}), ElementsAre(keyed_, void_, big_));
  EXPECT_THAT(listed({"--since", "30d"}), ElementsAre(old_, keyed_, void_, big_));
  EXPECT_THAT(listed({"--since", "1d", "--destination", "nowhere"}), ElementsAre(keyed_));
  EXPECT_THAT(listed({"--destination", "elsewhere"}), ElementsAre());

  const ToolRun limited = docket("list", {"--status", "parked", "--limit", "2", "--json"});
  ASSERT_EQ(limited.exit_code, 0) << describe(limited);
  EXPECT_EQ(nlohmann::json::parse(limited.out)["count"], 2);
  EXPECT_EQ(nlohmann::json::parse(limited.out)["more"], true);

  const ToolRun text = docket("list", {"--status", "parked", "--destination", "void"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_THAT(text.out, HasSubstr(void_));
  EXPECT_THAT(text.out, HasSubstr("tenant globex, destination void, ordering key (none)"));
  EXPECT_THAT(text.out, HasSubstr("last error: unroutable: "));
  EXPECT_THAT(text.out, HasSubstr("1 parked message\n"));
  EXPECT_EQ(statuses(), expected_after_writing());  // listing changes nothing
}

TEST_P(OutboxCommandTest, ReplayByIdMakesThatMessagePendingAndRefusesOneThatIsNotParked) {
  write_messages();

  const ToolRun dry = docket("replay", {"--id", keyed_, "--dry-run", "--json"});
  ASSERT_EQ(dry.exit_code, 0) << describe(dry);
  EXPECT_EQ(nlohmann::json::parse(dry.out)["replayed"], 0);
  EXPECT_EQ(nlohmann::json::parse(dry.out)["matched"], 1);
  EXPECT_EQ(statuses(), expected_after_writing());

  const ToolRun replay = docket("replay", {"--id", keyed_});
  ASSERT_EQ(replay.exit_code, 0) << describe(replay);
  EXPECT_THAT(replay.out, HasSubstr("replayed 1 of message " + keyed_));
  const OutboxRecord replayed = store_->find(keyed_).value();
  EXPECT_EQ(replayed.status, OutboxStatus::kPending);
  EXPECT_EQ(replayed.attempts, 0);
  EXPECT_LE(replayed.next_attempt_at, SystemClock::instance().now());  // due now
  auto expected = expected_after_writing();
  expected[keyed_] = OutboxStatus::kPending;
  EXPECT_EQ(statuses(), expected);

  // Not parked (any more, or ever, or at all): exit 1, a clear reason, nothing changed.
  const std::vector<std::pair<std::string, std::string>> refused = {
      {keyed_, "it is pending"},
      {done_, "it is done"},
      {pending_, "it is pending"},
      {Uuid::v7().to_string(), "holds no message with that id"},
  };
  for (const auto& [id, why] : refused) {
    for (const char* command : {"replay", "skip"}) {
      const ToolRun run = docket(command, {"--id", id});
      EXPECT_EQ(run.exit_code, 1) << command << ' ' << id << '\n' << describe(run);
      EXPECT_THAT(run.err, HasSubstr("no parked message with id '" + id + "'")) << command;
      EXPECT_THAT(run.err, HasSubstr(why)) << command;
      EXPECT_EQ(run.out, "") << command;
    }
  }
  EXPECT_EQ(statuses(), expected);
}

TEST_P(OutboxCommandTest, ReplayAllReplaysWhatTheFiltersMatchAndADryRunChangesNothing) {
  write_messages();

  const ToolRun dry = docket("replay", {"--all", "--dry-run", "--json"});
  ASSERT_EQ(dry.exit_code, 0) << describe(dry);
  const nlohmann::json would = nlohmann::json::parse(dry.out);
  EXPECT_EQ(would["matched"], 4);
  EXPECT_EQ(would["replayed"], 0);
  EXPECT_THAT(would["ids"].get<std::vector<std::string>>(), ElementsAre(old_, keyed_, void_, big_));
  const ToolRun dry_text = docket("replay", {"--all", "--dry-run", "--since", "1d"});
  ASSERT_EQ(dry_text.exit_code, 0) << describe(dry_text);
  EXPECT_THAT(dry_text.out, HasSubstr("would replay 3 parked messages"));
  EXPECT_THAT(dry_text.out, HasSubstr("  " + big_ + "\n"));
  EXPECT_EQ(statuses(), expected_after_writing());

  const ToolRun none = docket("replay", {"--all", "--error-like", "no such error", "--json"});
  ASSERT_EQ(none.exit_code, 0) << describe(none);
  EXPECT_EQ(nlohmann::json::parse(none.out)["replayed"], 0);
  EXPECT_THAT(none.err, HasSubstr("no parked message matches"));
  EXPECT_EQ(statuses(), expected_after_writing());

  const ToolRun one = docket("replay", {"--all", "--destination", "void", "--json"});
  ASSERT_EQ(one.exit_code, 0) << describe(one);
  EXPECT_EQ(nlohmann::json::parse(one.out)["replayed"], 1);
  auto expected = expected_after_writing();
  expected[void_] = OutboxStatus::kPending;
  EXPECT_EQ(statuses(), expected);

  const ToolRun rest = docket("replay", {"--all"});
  ASSERT_EQ(rest.exit_code, 0) << describe(rest);
  EXPECT_THAT(rest.out, HasSubstr("replayed 3 of 3 parked messages"));
  for (const std::string& id : {old_, keyed_, big_}) {
    const OutboxRecord record = store_->find(id).value();
    EXPECT_EQ(record.status, OutboxStatus::kPending) << id;
    EXPECT_EQ(record.attempts, 0) << id;
    expected[id] = OutboxStatus::kPending;
  }
  EXPECT_EQ(statuses(), expected);
  EXPECT_THAT(listed({}), ElementsAre());
}

TEST_P(OutboxCommandTest, SkipMarksTheMessageSkippedAndReleasesItsOrderingKey) {
  write_messages();
  // While the parked message holds order-7, a relay publishes the other pending
  // message and not the later one of the key.
  relay_accepting();
  EXPECT_EQ(store_->find(pending_)->status, OutboxStatus::kDone);
  EXPECT_EQ(store_->find(held_)->status, OutboxStatus::kPending);

  const ToolRun dry = docket("skip", {"--id", keyed_, "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << describe(dry);
  EXPECT_THAT(dry.out, HasSubstr("would skip message " + keyed_));
  EXPECT_EQ(store_->find(keyed_)->status, OutboxStatus::kParked);
  relay_accepting();
  EXPECT_EQ(store_->find(held_)->status, OutboxStatus::kPending);

  const ToolRun skip = docket("skip", {"--id", keyed_, "--json"});
  ASSERT_EQ(skip.exit_code, 0) << describe(skip);
  EXPECT_EQ(nlohmann::json::parse(skip.out)["skipped"], true);
  const OutboxRecord skipped = store_->find(keyed_).value();
  EXPECT_EQ(skipped.status, OutboxStatus::kSkipped);
  EXPECT_TRUE(skipped.done_at.has_value());
  // Released: the later message of order-7 is claimed and published now.
  relay_accepting();
  EXPECT_EQ(store_->find(held_)->status, OutboxStatus::kDone);
  EXPECT_EQ(store_->find(keyed_)->status, OutboxStatus::kSkipped);  // never published

  for (const char* command : {"skip", "replay"}) {
    const ToolRun again = docket(command, {"--id", keyed_});
    EXPECT_EQ(again.exit_code, 1) << describe(again);
    EXPECT_THAT(again.err, HasSubstr("no parked message with id '" + keyed_ + "'"));
    EXPECT_THAT(again.err, HasSubstr("was skipped"));
  }
  EXPECT_EQ(store_->find(keyed_)->status, OutboxStatus::kSkipped);
  EXPECT_THAT(listed({}), ElementsAre(old_, void_, big_));
}

TEST_P(OutboxCommandTest, StatsCountsEveryMessageByClassAndDestination) {
  write_messages();
  stage("globex", {.event_type = "ReminderDue",
                   .payload = "{}",
                   .destination = "reminders",
                   .deliver_at = SystemClock::instance().now() + std::chrono::hours(1)});
  const ToolRun run = docket("stats", {"--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const nlohmann::json stats = nlohmann::json::parse(run.out);
  const nlohmann::json& total = stats["total"];
  EXPECT_EQ(total["pending"], 3);
  EXPECT_EQ(total["due"], 2);  // pending_, and held_ (due, held by its key)
  EXPECT_EQ(total["scheduled"], 1);
  EXPECT_EQ(total["in_backoff"], 0);
  EXPECT_EQ(total["parked"], 4);
  EXPECT_EQ(total["done"], 1);
  const nlohmann::json& by = stats["destinations"];
  EXPECT_EQ(by.size(), 5U) << by.dump();
  EXPECT_EQ(by["nowhere"]["parked"], 2);
  EXPECT_EQ(by["void"]["parked"], 1);
  EXPECT_EQ(by["orders"]["parked"], 1);
  EXPECT_EQ(by["orders"]["done"], 1);
  EXPECT_EQ(by["orders"]["due"], 1);
  EXPECT_EQ(by["OrderPlaced"]["due"], 1);  // the default route: the event type
  EXPECT_EQ(by["reminders"]["scheduled"], 1);
  EXPECT_TRUE(stats["oldest_due_created_at"].is_string());
  EXPECT_GE(stats["oldest_due_age_seconds"].get<double>(), 0.0);

  const ToolRun text = docket("stats", {});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_THAT(text.out, HasSubstr("reminders"));
  EXPECT_THAT(text.out, HasSubstr("oldest due message staged"));
}

TEST_P(OutboxCommandTest, ListShowsTheMessagesOfEachStatusScheduledAndCancelledIncluded) {
  write_messages();
  const auto in_an_hour = SystemClock::instance().now() + std::chrono::hours(1);
  const std::string scheduled = stage("globex", {.event_type = "ReminderDue",
                                                 .payload = "{}",
                                                 .destination = "reminders",
                                                 .deliver_at = in_an_hour});
  const std::string cancelled = stage("globex", {.event_type = "ReminderDue",
                                                 .payload = "{}",
                                                 .destination = "reminders",
                                                 .deliver_at = in_an_hour});
  ASSERT_EQ(docket("cancel", {"--id", cancelled}).exit_code, 0);
  const auto ids_of = [&](const std::string& status, std::vector<std::string> options) {
    options.insert(options.begin(), {"--status", status, "--json"});
    const ToolRun run = docket("list", options);
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    std::vector<std::string> ids;
    if (run.exit_code == 0) {
      const nlohmann::json shown = nlohmann::json::parse(run.out);
      EXPECT_EQ(shown["status"], status);
      for (const nlohmann::json& message : shown["messages"])
        ids.push_back(message["id"].get<std::string>());
    }
    return ids;
  };
  EXPECT_THAT(ids_of("pending", {}), ElementsAre(pending_, held_, scheduled));
  EXPECT_THAT(ids_of("scheduled", {}), ElementsAre(scheduled));
  EXPECT_THAT(ids_of("cancelled", {}), ElementsAre(cancelled));
  EXPECT_THAT(ids_of("done", {}), ElementsAre(done_));
  EXPECT_THAT(ids_of("skipped", {}), ElementsAre());
  EXPECT_THAT(ids_of("pending", {"--destination", "reminders"}), ElementsAre(scheduled));
  EXPECT_THAT(ids_of("pending", {"--limit", "1"}), ElementsAre(pending_));

  const ToolRun text = docket("list", {"--status", "scheduled"});
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_THAT(text.out, HasSubstr("next attempt due"));
  EXPECT_THAT(text.out, HasSubstr("1 scheduled message"));
}

// docket health's outbox checks: parked messages against --max-parked, the backlog's
// age against --max-outbox-age; exit 1 when one fails, 0 when all hold.
TEST_P(OutboxCommandTest, HealthChecksParkedMessagesAndTheBacklogsAge) {
  write_messages();  // four parked, two due (staged just now)
  const auto health = [&](std::vector<std::string> options) {
    std::vector<std::string> command{"health", "--store", url_, "--json"};
    command.insert(command.end(), options.begin(), options.end());
    const ToolRun run = run_docket(command);
    EXPECT_NE(run.out, "") << describe(run);
    std::map<std::string, bool> ok;
    if (!run.out.empty()) {
      const nlohmann::json report = nlohmann::json::parse(run.out);
      for (const nlohmann::json& check : report["checks"])
        ok[check["check"].get<std::string>()] = check["ok"].get<bool>();
    }
    return std::pair{run.exit_code, ok};
  };
  const auto [parked_fails, parked_checks] = health({});
  EXPECT_EQ(parked_fails, 1);
  std::map<std::string, bool> expected{{"outbox backlog", true}, {"parked messages", false}};
  if (url_.starts_with("redis://")) {
    expected["durability"] = true;  // the server's appendonly and appendfsync, stated
  }
  EXPECT_EQ(parked_checks, expected);
  const auto [tolerated, tolerated_checks] = health({"--max-parked", "4"});
  EXPECT_EQ(tolerated, 0);
  EXPECT_EQ(tolerated_checks.at("parked messages"), true);
  // A message due ten days ago and still not published: the backlog is ten days old.
  const ManualClock ten_days_ago(SystemClock::instance().now() - std::chrono::hours(240));
  stage("acme", {.event_type = "OrderPlaced", .payload = "{}"}, ten_days_ago);
  const auto [stale, stale_checks] = health({"--max-parked", "4", "--max-outbox-age", "1d"});
  EXPECT_EQ(stale, 1);
  EXPECT_EQ(stale_checks.at("outbox backlog"), false);
  EXPECT_EQ(health({"--max-parked", "4", "--max-outbox-age", "30d"}).first, 0);
}

TEST_P(OutboxCommandTest, PurgeParkedDeletesOnlyTheOldParkedMessages) {
  write_messages();  // old_ was parked at its first attempt, due ten days ago
  const ToolRun dry = docket("purge-parked", {"--older-than", "5d", "--dry-run", "--json"});
  ASSERT_EQ(dry.exit_code, 0) << describe(dry);
  EXPECT_EQ(nlohmann::json::parse(dry.out)["would_delete"], 1);
  EXPECT_EQ(statuses(), expected_after_writing());

  const ToolRun purge = docket("purge-parked", {"--older-than", "5d", "--batch", "1"});
  ASSERT_EQ(purge.exit_code, 0) << describe(purge);
  EXPECT_THAT(purge.out, HasSubstr("deleted 1 parked message of"));
  EXPECT_FALSE(store_->find(old_).has_value());
  auto expected = expected_after_writing();
  expected.erase(old_);
  std::set<std::string> ids;
  for (const auto& [id, status] : expected)
    ids.insert(id);
  EXPECT_EQ(statuses(ids), expected);
  EXPECT_THAT(listed({}), ElementsAre(keyed_, void_, big_));
}

TEST_P(OutboxCommandTest, CancelTakesBackAPendingMessageAndRefusesEveryOtherPlainly) {
  const std::string scheduled =
      stage("acme", {.event_type = "ReminderDue",
                     .payload = "{}",
                     .deliver_at = SystemClock::instance().now() + std::chrono::hours(1)});
  const std::string published = stage("acme", {.event_type = "OrderPlaced", .payload = "{}"});
  relay_accepting();
  ASSERT_EQ(store_->find(published)->status, OutboxStatus::kDone);
  ASSERT_EQ(store_->find(scheduled)->status, OutboxStatus::kPending);  // not due yet

  const ToolRun cancel = docket("cancel", {"--id", scheduled, "--json"});
  ASSERT_EQ(cancel.exit_code, 0) << describe(cancel);
  EXPECT_EQ(nlohmann::json::parse(cancel.out)["outcome"], "cancelled");
  EXPECT_EQ(store_->find(scheduled)->status, OutboxStatus::kCancelled);

  const ToolRun again = docket("cancel", {"--id", scheduled});
  EXPECT_EQ(again.exit_code, 1) << describe(again);
  EXPECT_THAT(again.err, HasSubstr("is not pending"));
  const ToolRun done = docket("cancel", {"--id", published});
  EXPECT_EQ(done.exit_code, 1) << describe(done);
  EXPECT_THAT(done.err, HasSubstr("was already published"));
  const std::string unknown = Uuid::v7().to_string();
  const ToolRun none = docket("cancel", {"--id", unknown});
  EXPECT_EQ(none.exit_code, 1) << describe(none);
  EXPECT_THAT(none.err, HasSubstr("no message has id '" + unknown + "'"));
  EXPECT_EQ(store_->find(published)->status, OutboxStatus::kDone);
}

TEST_P(OutboxCommandTest, AReplayOfManyMessagesReportsItsProgress) {
  std::set<std::string> ids;
  for (int i = 0; i < 60; ++i) {
    ids.insert(
        stage("acme", {.event_type = "OrderPlaced", .payload = "{}", .destination = "void"}));
  }
  relay_once();
  ASSERT_EQ(listed({"--limit", "1000"}).size(), 60U);

  const ToolRun run = docket("replay", {"--all"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("replayed 6 of 60\n"));
  EXPECT_THAT(run.err, HasSubstr("replayed 60 of 60\n"));
  EXPECT_THAT(run.out, HasSubstr("replayed 60 of 60 parked messages"));
  const std::map<std::string, OutboxStatus> after = statuses(ids);
  ASSERT_EQ(after.size(), 60U);
  for (const auto& [id, status] : after) {
    EXPECT_EQ(status, OutboxStatus::kPending) << id;
  }
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OutboxCommandTest);
INSTANTIATE_TEST_SUITE_P(
    Stores, OutboxCommandTest, ::testing::ValuesIn(outbox_command_test::stores()),
    [](const ::testing::TestParamInfo<test_support::ScratchDatabaseCase>& store) {
      return store.param.name;
    });

// A store private to the process: this process's outbox would be empty, whatever the
// service's holds. Refused, naming why, for each command.
TEST(OutboxCommand, AStorePrivateToTheProcessIsRefused) {
  const std::string id = Uuid::v7().to_string();
  for (const char* url : {"memory:", "sqlite::memory:"}) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"outbox", "list", "--status", "parked", "--store", url},
             {"outbox", "replay", "--all", "--store", url},
             {"outbox", "replay", "--id", id, "--store", url},
             {"outbox", "skip", "--id", id, "--store", url}}) {
      const ToolRun run = run_docket(args);
      EXPECT_EQ(run.exit_code, 1) << url << '\n' << describe(run);
      EXPECT_THAT(run.err, HasSubstr("lives in memory, private to the process"));
      EXPECT_EQ(run.out, "");
    }
  }
}

}  // namespace
}  // namespace docket::testing
