// docket projections status|reset|rebuild on real stores, on every provider of the build
// whose scratch database (tests/support/scratch_database.h) holds an inbox store: the
// checkpoints and dedup rows there, the feed in the same database where its event store
// has one, else in a SQLite scratch database (--events). Real EventFeedConsumers create
// the checkpoints and dedup rows (a whole-feed "projector" left two events behind, and
// an acme-only "acme-mailer" caught up); the tool runs as a child process, and the
// consumers run again afterwards to show what a reset or a rebuild made them do.
#include "projections_command.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "conformance/fixture_registry.h"
#include "docket/projections/event_feed_consumer.h"
#include "docket/stores/open_store.h"
#include "projections/cursor_only_event_store.h"
#include "support/scratch_database.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using test_support::ScratchDatabaseCase;

namespace projections_test {

bool offers(const ScratchDatabaseCase& scratch, bool events) {
  for (const providers::ProviderRegistration* provider :
       providers::Registry::builtin().providers()) {
    if (provider->name == scratch.provider) {
      return events ? provider->event != nullptr : provider->inbox != nullptr;
    }
  }
  return false;
}

std::vector<ScratchDatabaseCase> stores() {
  return conformance::FixtureRegistry<ScratchDatabaseCase>::where(
      [](const ScratchDatabaseCase& scratch) {
        return offers(scratch, false) && offers(scratch, true);  // an inbox and an event store
      });
}

struct Amount {
  int value = 0;
};
void from_json(const nlohmann::json& j, Amount& a) {
  j.at("value").get_to(a.value);
}

}  // namespace projections_test

class ProjectionsCommandTest : public ::testing::TestWithParam<ScratchDatabaseCase> {
 protected:
  void SetUp() override {
    database_ = GetParam().make();
    url_ = database_->url();
    if (open_event_store(url_)->capabilities().feed == FeedKind::kNone) {
      // The feed lives in another database: the first scratch case whose event store
      // has one.
      for (const ScratchDatabaseCase& other : projections_test::stores()) {
        if (projections_test::offers(other, true) && other.provider != GetParam().provider) {
          feed_database_ = other.make();
          if (open_event_store(feed_database_->url())->capabilities().feed != FeedKind::kNone) {
            break;
          }
          feed_database_.reset();
        }
      }
      ASSERT_NE(feed_database_, nullptr) << "no provider of the build has a feed";
    }
    events_url_ = feed_database_ ? feed_database_->url() : url_;
    inbox_ = open_inbox_store(url_);
    events_ = open_event_store(events_url_, two_hours_ago_);
    // acme: 3 events two hours ago; globex: 2 events now.
    events_->append(StreamId(TenantId("acme"), "account", "A-1"), ExpectedVersion::no_stream(),
                    {deposit(1), deposit(2), deposit(3)});
    events_ = open_event_store(events_url_);
    events_->append(StreamId(TenantId("globex"), "account", "G-1"), ExpectedVersion::no_stream(),
                    {deposit(4), deposit(5)});
    const ReadAllPage all = events_->read_all(0, 100);
    ASSERT_EQ(all.events.size(), 5u);
    feed_ = all.events;
    // The projector reads one page of two; the acme mailer reads every acme event.
    consumer("projector", std::nullopt).run_once();
    run_to_end("acme-mailer", TenantId("acme"));
  }

  static NewEvent deposit(int value) {
    return NewEvent{.type = "deposited", .payload = nlohmann::json{{"value", value}}.dump()};
  }

  // A feed consumer with id `id`, counting each event its handler sees in handled_[id].
  EventFeedConsumer consumer(const std::string& id, std::optional<TenantId> tenant) {
    HandlerRegistry handlers;
    handlers.on<projections_test::Amount>(
        "deposited", [this, id](const projections_test::Amount& amount, HandlerContext&) {
          ++handled_[id][amount.value];
        });
    dispatchers_.push_back(
        std::make_unique<InboxDispatcher>(*inbox_, InboxOptions(id), std::move(handlers)));
    return EventFeedConsumer(*events_, *dispatchers_.back(),
                             EventFeedSettings{.batch_size = 2, .tenant = std::move(tenant)});
  }
  // Runs `id`'s consumer until it is caught up.
  void run_to_end(const std::string& id, std::optional<TenantId> tenant) {
    EventFeedConsumer feed = consumer(id, std::move(tenant));
    while (feed.run_once().read > 0) {
    }
  }

  std::optional<std::string> checkpoint(const std::string& id, const TenantId& scope) {
    const TenantScope in_scope(scope);
    return inbox_->checkpoints().get(id);
  }

  std::vector<std::string> args(std::vector<std::string> command) const {
    command.insert(command.begin(), "projections");
    command.insert(command.begin() + 2, {"--store", url_, "--events", events_url_});
    return command;
  }
  nlohmann::json run_json(std::vector<std::string> command) {
    command.push_back("--json");
    const ToolRun run = run_docket(args(std::move(command)));
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    return run.exit_code == 0 ? nlohmann::json::parse(run.out) : nlohmann::json::object();
  }
  // A refused run: exit `code`, "docket: " and `mention` on stderr, nothing on stdout.
  void expect_refused(std::vector<std::string> command, int code, const std::string& mention) {
    const ToolRun run = run_docket(args(std::move(command)));
    EXPECT_EQ(run.exit_code, code) << describe(run);
    EXPECT_EQ(run.out, "") << describe(run);
    EXPECT_NE(run.err.find("docket: "), std::string::npos) << describe(run);
    EXPECT_NE(run.err.find(mention), std::string::npos) << describe(run);
  }

  std::unique_ptr<test_support::ScratchDatabase> database_;
  std::unique_ptr<test_support::ScratchDatabase> feed_database_;
  std::string url_;
  std::string events_url_;
  ManualClock two_hours_ago_{SystemClock::instance().now() - std::chrono::hours(2)};
  std::unique_ptr<InboxStore> inbox_;
  std::unique_ptr<EventStore> events_;
  std::vector<RecordedEvent> feed_;
  std::vector<std::unique_ptr<InboxDispatcher>> dispatchers_;
  std::map<std::string, std::map<int, int>> handled_;  // consumer -> amount -> times
};

TEST_P(ProjectionsCommandTest, StatusShowsEachConsumersLagInPositionsAndTime) {
  const nlohmann::json status = run_json({"status"});
  EXPECT_EQ(status["feed"], "global positions");
  ASSERT_EQ(status["count"], 2) << status.dump();
  std::map<std::string, nlohmann::json> by_consumer;
  for (const nlohmann::json& row : status["projections"]) {
    by_consumer[row["consumer_id"].get<std::string>()] = row;
  }
  const std::int64_t head = feed_.back().global_position;
  const nlohmann::json& projector = by_consumer["projector"];
  EXPECT_EQ(projector["tenant"], nullptr);
  const std::int64_t next = feed_[1].global_position + 1;  // after its page of two
  EXPECT_EQ(projector["checkpoint"], std::to_string(next));
  EXPECT_EQ(projector["head"], head);
  EXPECT_EQ(projector["lag_positions"], head + 1 - next);
  EXPECT_EQ(projector["caught_up"], false);
  EXPECT_EQ(projector["oldest_pending_at"], format_timestamp(feed_[2].occurred_at));
  EXPECT_GE(projector["lag_seconds"].get<double>(), 7200.0);
  EXPECT_EQ(projector["problem"], nullptr);
  const nlohmann::json& mailer = by_consumer["acme-mailer"];
  EXPECT_EQ(mailer["tenant"], "acme");
  EXPECT_EQ(mailer["head"], feed_[2].global_position);
  EXPECT_EQ(mailer["lag_positions"], 0);
  EXPECT_EQ(mailer["caught_up"], true);
  EXPECT_EQ(mailer["lag_seconds"], 0.0);

  EXPECT_EQ(run_json({"status", "--tenant", "acme"})["count"], 1);
  EXPECT_EQ(run_json({"status", "--consumer", "projector"})["count"], 1);
  EXPECT_EQ(run_json({"status", "--tenant", "initech"})["count"], 0);
  const nlohmann::json one = run_json({"status", "--limit", "1"});
  EXPECT_EQ(one["count"], 1);
  EXPECT_EQ(one["more"], true);

  // Caught up, the projector lags by nothing.
  run_to_end("projector", std::nullopt);
  const nlohmann::json after = run_json({"status", "--consumer", "projector"});
  EXPECT_EQ(after["projections"][0]["lag_positions"], 0);
  EXPECT_EQ(after["projections"][0]["caught_up"], true);

  const ToolRun text = run_docket(args({"status"}));
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("CONSUMER     TENANT        CHECKPOINT  HEAD  LAG"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("(whole feed)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(caught up)"), std::string::npos) << text.out;
}

// docket health --projection: the projector's oldest unread event is two hours old.
TEST_P(ProjectionsCommandTest, HealthFailsAProjectionLaggingBeyondItsMaximum) {
  const auto health = [&](const std::string& max_lag) {
    return run_docket({"health", "--store", url_, "--events", events_url_, "--projection",
                       "projector", "--max-projection-lag", max_lag, "--json"});
  };
  const auto projection_check = [](const ToolRun& run) {
    const nlohmann::json report = nlohmann::json::parse(run.out);
    for (const nlohmann::json& check : report["checks"]) {
      if (check["check"] == "projection projector")
        return check;
    }
    return nlohmann::json(nullptr);
  };
  const ToolRun lagging = health("1h");
  EXPECT_EQ(lagging.exit_code, 1) << describe(lagging);
  EXPECT_EQ(projection_check(lagging)["ok"], false) << lagging.out;
  EXPECT_NE(lagging.err.find("failed: projection projector"), std::string::npos) << lagging.err;
  const ToolRun tolerated = health("3h");
  EXPECT_EQ(tolerated.exit_code, 0) << describe(tolerated);
  EXPECT_EQ(projection_check(tolerated)["ok"], true) << tolerated.out;
  run_to_end("projector", std::nullopt);
  const ToolRun caught_up = health("1m");
  EXPECT_EQ(caught_up.exit_code, 0) << describe(caught_up);
  EXPECT_NE(projection_check(caught_up)["detail"].get<std::string>().find("caught up"),
            std::string::npos);
  const ToolRun unknown =
      run_docket({"health", "--store", url_, "--events", events_url_, "--projection", "nobody"});
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  EXPECT_NE(unknown.out.find("FAIL projection nobody: no whole-feed checkpoint"), std::string::npos)
      << unknown.out;
}

TEST_P(ProjectionsCommandTest, ResetMovesTheCheckpointOnlyAndDryRunChangesNothing) {
  const std::string before = *checkpoint("projector", TenantId::untenanted());
  const std::string past_head = std::to_string(feed_.back().global_position + 1);
  const nlohmann::json dry =
      run_json({"reset", "--consumer", "projector", "--to", past_head, "--dry-run"});
  EXPECT_EQ(dry["from"], before);
  EXPECT_EQ(dry["to"], past_head);
  EXPECT_EQ(dry["changed"], false);
  EXPECT_EQ(checkpoint("projector", TenantId::untenanted()), before);

  // Skipping the rest: the consumer reads nothing more.
  EXPECT_EQ(run_json({"reset", "--consumer", "projector", "--to", past_head})["changed"], true);
  EXPECT_EQ(checkpoint("projector", TenantId::untenanted()), past_head);
  EXPECT_EQ(consumer("projector", std::nullopt).run_once().read, 0u);

  // Back to the start: everything is read again, and what was processed is skipped.
  const ToolRun text = run_docket(args({"reset", "--consumer", "projector", "--to", "0"}));
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("checkpoint " + past_head + " -> 0"), std::string::npos) << text.out;
  const EventFeedPass again = consumer("projector", std::nullopt).run_once();
  EXPECT_EQ(again.read, 2u);
  EXPECT_EQ(again.skipped, 2u);
  EXPECT_EQ(handled_["projector"][1], 1);

  // One tenant's consumer, and one that has not run yet.
  EXPECT_EQ(run_json({"reset", "--consumer", "acme-mailer", "--tenant", "acme", "--to", "1"})["to"],
            "1");
  EXPECT_EQ(checkpoint("acme-mailer", TenantId("acme")), "1");
  EXPECT_EQ(run_json({"reset", "--consumer", "new-one", "--to", "2", "--create"})["from"], nullptr);
  EXPECT_EQ(checkpoint("new-one", TenantId::untenanted()), "2");
}

TEST_P(ProjectionsCommandTest, RebuildRunsTheHandlersAgainOverEveryEvent) {
  run_to_end("projector", std::nullopt);
  ASSERT_EQ(handled_["projector"].size(), 5u);
  const nlohmann::json dry = run_json({"rebuild", "--consumer", "projector", "--dry-run"});
  EXPECT_EQ(dry["dedup_rows_deleted"], nullptr);
  EXPECT_EQ(checkpoint("projector", TenantId::untenanted()),
            std::to_string(feed_.back().global_position + 1));
  EXPECT_EQ(consumer("projector", std::nullopt).run_once().read, 0u) << "dry run changed it";

  const nlohmann::json rebuilt = run_json({"rebuild", "--consumer", "projector", "--batch", "2"});
  EXPECT_EQ(rebuilt["dedup_rows_deleted"], 5) << "rows of both tenants";
  EXPECT_EQ(rebuilt["to"], "0");
  EXPECT_EQ(checkpoint("projector", TenantId::untenanted()), "0");
  run_to_end("projector", std::nullopt);
  for (int amount = 1; amount <= 5; ++amount) {
    EXPECT_EQ(handled_["projector"][amount], 2) << amount;
  }
  // Another consumer's rows stay: the acme mailer still skips what it processed.
  EXPECT_EQ(
      run_json({"reset", "--consumer", "acme-mailer", "--tenant", "acme", "--to", "0"})["changed"],
      true);
  run_to_end("acme-mailer", TenantId("acme"));
  EXPECT_EQ(handled_["acme-mailer"][1], 1);

  // One tenant's consumer: its tenant's rows.
  const ToolRun text =
      run_docket(args({"rebuild", "--consumer", "acme-mailer", "--tenant", "acme"}));
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  EXPECT_NE(text.out.find("deleted 3 dedup rows of tenant 'acme'"), std::string::npos) << text.out;
  run_to_end("acme-mailer", TenantId("acme"));
  EXPECT_EQ(handled_["acme-mailer"][3], 2);
}

TEST_P(ProjectionsCommandTest, BadInputIsRefusedAndChangesNothing) {
  const std::string before = *checkpoint("projector", TenantId::untenanted());
  const std::string beyond = std::to_string(feed_.back().global_position + 2);
  expect_refused({"reset", "--consumer", "projector", "--to", "-1"}, 2, "--to");
  expect_refused({"reset", "--consumer", "projector", "--to", "ten"}, 2, "--to");
  expect_refused({"reset", "--consumer", "projector", "--to", beyond}, 1, "beyond the feed's head");
  expect_refused({"reset", "--consumer", "", "--to", "0"}, 1, "--consumer");
  expect_refused({"reset", "--consumer", "nobody", "--to", "0"}, 1, "no checkpoint");
  expect_refused({"reset", "--consumer", "acme-mailer", "--to", "0"}, 1, "--tenant acme");
  expect_refused({"rebuild", "--consumer", "nobody"}, 1, "nobody");
  expect_refused({"rebuild", "--consumer", "projector", "--tenant", "globex"}, 1, "no checkpoint");
  expect_refused({"rebuild", "--consumer", "projector", "--batch", "0"}, 2, "--batch");
  expect_refused({"status", "--consumer", "nobody"}, 1, "nobody");
  expect_refused({"status", "--consumer", ""}, 1, "--consumer");
  EXPECT_EQ(checkpoint("projector", TenantId::untenanted()), before);
  EXPECT_EQ(consumer("projector", std::nullopt).run_once().skipped, 0u) << "a dedup row went";

  if (feed_database_) {
    // The inbox's own database has no feed: the refusal says to pass --events.
    const ToolRun run = run_docket({"projections", "status", "--store", url_});
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    EXPECT_NE(run.err.find("--events"), std::string::npos) << describe(run);
  }
}

// On a feed of opaque cursors (no provider has one yet: a real store showing only
// such a feed) status shows no positions: the time lag of the first event past the
// checkpoint, and whether there is one (caught up). The tool's own function, called
// directly, since no URL opens such a store.
TEST(ProjectionLagOnOpaqueFeed, ShowsTheTimeLagAndWhetherCaughtUpButNoPositions) {
  ManualClock clock{SystemClock::instance().now()};
  const std::unique_ptr<EventStore> inner = open_event_store("memory:", clock);
  projection_tests::CursorOnlyEventStore events(*inner, clock);
  inner->append(StreamId(TenantId("acme"), "account", "A-1"), ExpectedVersion::no_stream(),
                {NewEvent{.type = "e", .payload = "{}"}});
  const Timestamp first_at = clock.now();
  clock.advance(std::chrono::seconds(30));
  inner->append(StreamId(TenantId("acme"), "account", "A-1"), ExpectedVersion::exactly(0),
                {NewEvent{.type = "e", .payload = "{}"}});
  using projection_tests::CursorOnlyEventStore;
  const CheckpointEntry behind{.tenant = TenantId::untenanted(),
                               .consumer_id = "projector",
                               .position = CursorOnlyEventStore::encode(1).text(),
                               .updated_at = first_at};
  const tool::ProjectionLag lag =
      tool::measure_projection_lag(events, behind, first_at + std::chrono::seconds(90));
  ASSERT_TRUE(lag.cursor.has_value());
  EXPECT_EQ(lag.head, std::nullopt);
  EXPECT_EQ(lag.lag_positions, std::nullopt);
  EXPECT_EQ(lag.oldest_pending, first_at);
  EXPECT_EQ(lag.lag_time, std::chrono::seconds(90));

  CheckpointEntry caught_up = behind;
  caught_up.position = CursorOnlyEventStore::encode(3).text();
  const tool::ProjectionLag none = tool::measure_projection_lag(events, caught_up, clock.now());
  ASSERT_TRUE(none.cursor.has_value());
  EXPECT_EQ(none.oldest_pending, std::nullopt);
  EXPECT_EQ(none.lag_time, std::chrono::microseconds(0));

  // A position (another feed's checkpoint) is no cursor of this feed.
  CheckpointEntry other = behind;
  other.position = "2";
  EXPECT_FALSE(tool::measure_projection_lag(events, other, clock.now()).cursor.has_value());
}

INSTANTIATE_TEST_SUITE_P(Stores, ProjectionsCommandTest,
                         ::testing::ValuesIn(projections_test::stores()),
                         [](const ::testing::TestParamInfo<ScratchDatabaseCase>& store) {
                           return store.param.name;
                         });

}  // namespace
}  // namespace docket::testing
