// Typed aggregates on the provider's stores: C++ events appended under their declared
// names and evolved back into the state, decisions of one event or many, snapshots in
// the state's codec, conflicts surfaced, and a stored event the aggregate cannot read
// refused with the stream, version and types named.
#include "docket/eventsourcing/typed_aggregate.h"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

struct Deposited {
  static constexpr std::string_view kMessageType = "deposited";
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Deposited, cents)

struct Withdrawn {
  static constexpr std::string_view kMessageType = "withdrawn";
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Withdrawn, cents)

// Evolved by a free function, found by argument-dependent lookup.
struct Frozen {
  static constexpr std::string_view kMessageType = "frozen";
  std::string reason;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Frozen, reason)

struct Account {
  std::int64_t balance = 0;
  int movements = 0;
  bool frozen = false;
  void evolve(const Deposited& e) {
    balance += e.cents;
    ++movements;
  }
  void evolve(const Withdrawn& e) {
    balance -= e.cents;
    ++movements;
  }
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Account, balance, movements, frozen)
void evolve(Account& a, const Frozen&) {
  a.frozen = true;
}

using Accounts = TypedAggregateRepository<Account, Deposited, Withdrawn, Frozen>;

struct Impostor {  // a second C++ type under "deposited"
  static constexpr std::string_view kMessageType = "deposited";
  int cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Impostor, cents)
struct Ledger {
  void evolve(const Deposited&) {}
  void evolve(const Impostor&) {}
};

class TypedAggregate : public StoreConformance {};

TEST_P(TypedAggregate, AppendsTypedEventsUnderTheirNamesAndEvolvesTheStateFromThem) {
  const Accounts accounts(*events_, "account");
  auto r = accounts.execute(tenant("acme"), "A-1", [](const Account&) {
    return Accounts::Decision{Deposited{500}, Withdrawn{120}};
  });
  ASSERT_FALSE(r.conflict);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.state.balance, 380);
  r = accounts.execute(tenant("acme"), "A-1", [](const Account& a) {
    EXPECT_EQ(a.balance, 380);
    return Frozen{"audit"};  // one event, not a Decision
  });
  EXPECT_TRUE(r.state.frozen);

  const std::vector<RecordedEvent> stored = events_->load(account("A-1"));
  ASSERT_EQ(stored.size(), 3u);
  EXPECT_EQ(stored[0].type, "deposited");
  EXPECT_EQ(nlohmann::json::parse(stored[0].payload), nlohmann::json({{"cents", 500}}));
  EXPECT_EQ(stored[1].type, "withdrawn");
  EXPECT_EQ(stored[2].type, "frozen");

  const auto loaded = accounts.load(tenant("acme"), "A-1");
  EXPECT_EQ(loaded.state.balance, 380);
  EXPECT_EQ(loaded.state.movements, 2);
  EXPECT_TRUE(loaded.state.frozen);
  EXPECT_EQ(loaded.version, 2);
  EXPECT_EQ(accounts.load(tenant("globex"), "A-1").version, kNoStreamVersion);
}

TEST_P(TypedAggregate, AnEmptyDecisionAppendsNothing) {
  const Accounts accounts(*events_, "account");
  const auto r =
      accounts.execute(tenant("acme"), "A-2", [](const Account&) { return Accounts::Decision{}; });
  EXPECT_EQ(r.version, kNoStreamVersion);
  EXPECT_TRUE(r.appended.empty());
  EXPECT_TRUE(events_->load(account("A-2")).empty());
}

TEST_P(TypedAggregate, ADecisionOnStaleStateComesBackAsAConflictWithNothingWritten) {
  const Accounts accounts(*events_, "account");
  accounts.execute(tenant("acme"), "A-3", [](const Account&) { return Deposited{100}; });
  const auto r = accounts.execute(tenant("acme"), "A-3", [&](const Account&) {
    // Another writer appends between this load and its append.
    accounts.execute(tenant("acme"), "A-3", [](const Account&) { return Deposited{1}; });
    return Withdrawn{100};
  });
  ASSERT_TRUE(r.conflict.has_value());
  EXPECT_EQ(r.conflict->actual_version, 1);
  EXPECT_EQ(accounts.load(tenant("acme"), "A-3").state.balance, 101);
}

TEST_P(TypedAggregate, SavesAndStartsFromSnapshotsInTheStatesCodec) {
  ASSERT_NE(snapshots_, nullptr);  // aggregate_providers() offer snapshots
  const Accounts accounts(*events_, "account", *snapshots_, 3);
  for (int i = 0; i < 3; ++i) {
    accounts.execute(tenant("acme"), "A-4", [](const Account&) { return Deposited{10}; });
  }
  const auto first = accounts.load(tenant("acme"), "A-4");  // replays 3: saves one
  EXPECT_EQ(first.events_replayed, 3u);
  const std::optional<Snapshot> saved = snapshots_->load(account("A-4"));
  ASSERT_TRUE(saved.has_value());
  EXPECT_EQ(saved->version, 2);
  EXPECT_EQ(nlohmann::json::parse(saved->payload)["balance"], 30);
  accounts.execute(tenant("acme"), "A-4", [](const Account&) { return Withdrawn{5}; });
  const auto second = accounts.load(tenant("acme"), "A-4");
  EXPECT_EQ(second.snapshot, SnapshotUse::kUsed);
  EXPECT_EQ(second.events_replayed, 1u);
  EXPECT_EQ(second.state.balance, 25);
  EXPECT_EQ(second.state.movements, 4);
}

TEST_P(TypedAggregate, AStoredEventOfATypeItDoesNotListIsRefusedNamingStreamVersionAndTypes) {
  append_ok(account("A-5"), ExpectedVersion::no_stream(),
            {event("deposited", R"({"cents":1})"), event("renamed", "{}")});
  const Accounts accounts(*events_, "account");
  try {
    accounts.load(tenant("acme"), "A-5");
    ADD_FAILURE() << "an unknown event type was skipped";
  } catch (const InvalidInputError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("'renamed'"), std::string::npos) << text;
    EXPECT_NE(text.find("version 1"), std::string::npos) << text;
    EXPECT_NE(text.find("'deposited', 'withdrawn', 'frozen'"), std::string::npos) << text;
    EXPECT_NE(text.find("A-5"), std::string::npos) << text;
  }
}

TEST_P(TypedAggregate, AnEventItsCodecCannotDecodeIsRefusedNamingTheCppType) {
  append_ok(account("A-6"), ExpectedVersion::no_stream(), {event("withdrawn", "not json")});
  const Accounts accounts(*events_, "account");
  try {
    accounts.load(tenant("acme"), "A-6");
    ADD_FAILURE() << "an undecodable event was applied";
  } catch (const InvalidInputError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("Withdrawn"), std::string::npos) << text;
    EXPECT_EQ(text.find("9Withdrawn"), std::string::npos) << "a mangled name: " << text;
    EXPECT_NE(text.find("version 0"), std::string::npos) << text;
  }
}

TEST_P(TypedAggregate, TwoEventTypesUnderOneNameAreRefusedNamingBoth) {
  try {
    (void)TypedAggregateRepository<Ledger, Deposited, Impostor>{*events_, "ledger"};
    ADD_FAILURE() << "two C++ types under one name were accepted";
  } catch (const ConfigurationError& e) {
    const std::string text = e.what();
    EXPECT_NE(text.find("Deposited"), std::string::npos) << text;
    EXPECT_NE(text.find("Impostor"), std::string::npos) << text;
    EXPECT_NE(text.find("'deposited'"), std::string::npos) << text;
  }
  EXPECT_THROW((void)Accounts(*events_, ""), ConfigurationError);
}

INSTANTIATE_TEST_SUITE_P(Providers, TypedAggregate, ::testing::ValuesIn(aggregate_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
