// An inbox handler appends events inside its unit of work (EventStore::append with
// the handler's transaction) on one database holding the inbox and the events: the
// events commit with the dedup row, vanish with it when the dispatch fails, and a
// redelivery appends nothing. Other pairings are refused. Runs for every provider
// whose event store can join its own inbox's transaction (a Database type below);
// each names another provider for the refusals (memory names SQLite, or PostgreSQL in
// a build without SQLite, so this file is built when either is).
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/error.h"
#include "docket/handler_registry.h"
#include "docket/inbox_dispatcher.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/tenant.h"
#ifdef DOCKET_HAVE_SQLITE
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "temp_dir.h"
#endif
#ifdef DOCKET_HAVE_POSTGRES
#include "docket/postgres/event_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "support/postgres_schema.h"
#endif

namespace docket::conformance::eventsourcing {
namespace {

struct Deposit {
  std::string account;
  int amount = 0;
};
void to_json(nlohmann::json& j, const Deposit& d) {
  j = nlohmann::json{{"account", d.account}, {"amount", d.amount}};
}
void from_json(const nlohmann::json& j, Deposit& d) {
  j.at("account").get_to(d.account);
  j.at("amount").get_to(d.amount);
}

constexpr std::string_view kDepositType = "deposit";

Envelope deposit(std::string message_id, int amount) {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = std::string(kDepositType);
  envelope.payload = nlohmann::json(Deposit{"A-1", amount}).dump();
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

// One provider's database holding an inbox and the events, another database of the
// same provider, and another provider (Foreign).
struct MemoryForeign {
  using Transaction = memory::Transaction;
  static constexpr std::string_view kProvider = "memory";
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) { return memory::open_store(clock); }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return memory::open_event_store(clock);
  }
};

#ifdef DOCKET_HAVE_SQLITE
struct SqliteDatabase {
  using Transaction = sqlite::Transaction;
  using Foreign = MemoryForeign;
  static constexpr std::string_view kProvider = "sqlite";

  SqliteDatabase() { options.path = dir.file("app.db"); }
  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return sqlite::open_store(options, clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return sqlite::open_event_store(options, clock);
  }
  // An inbox on another database, and what the refusal of its transaction mentions.
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    sqlite::StoreOptions other;
    other.path = dir.file("other.db");
    return sqlite::open_store(other, clock);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"other.db", "app.db", "StoreOptions::path"};
  }

  TempDir dir;
  sqlite::StoreOptions options;
  Foreign foreign;
};
#endif

#ifdef DOCKET_HAVE_POSTGRES
using test_support::PostgresSchema;

struct PostgresDatabase {
  using Transaction = postgres::Transaction;
  using Foreign = MemoryForeign;
  static constexpr std::string_view kProvider = "postgres";

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return postgres::open_store(schema.url(), clock);
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return postgres::open_event_store({.conninfo = schema.url()}, clock);
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    return postgres::open_store(other.url(), clock);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"no table of database", "same conninfo"};
  }

  PostgresSchema schema;
  PostgresSchema other;
  Foreign foreign;
};
#endif

// The memory provider's stores on one docket::memory::Database.
struct MemoryDatabase {
  using Transaction = memory::Transaction;
#ifdef DOCKET_HAVE_SQLITE
  struct Foreign {
    using Transaction = sqlite::Transaction;
    static constexpr std::string_view kProvider = "sqlite";
    std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
      return sqlite::open_store({.path = ":memory:"}, clock);
    }
    std::unique_ptr<EventStore> open_events(const Clock& clock) {
      return sqlite::open_event_store({.path = ":memory:"}, clock);
    }
  };
#else
  using Foreign = PostgresDatabase;
#endif
  static constexpr std::string_view kProvider = "memory";

  std::unique_ptr<InboxStore> open_inbox(const Clock& clock) {
    return memory::open_store(database(clock));
  }
  std::unique_ptr<EventStore> open_events(const Clock& clock) {
    return memory::open_event_store(database(clock));
  }
  std::unique_ptr<InboxStore> open_other_inbox(const Clock& clock) {
    other = memory::open_database(clock);
    return memory::open_store(*other);
  }
  std::vector<std::string> other_database_mentions() const {
    return {"memory database " + std::to_string(other->id()),
            "memory database " + std::to_string(db->id()), "docket::memory::Database"};
  }

  const memory::Database& database(const Clock& clock) {
    if (!db) {
      db = memory::open_database(clock);
    }
    return *db;
  }

  std::optional<memory::Database> db;
  std::optional<memory::Database> other;
  Foreign foreign;
};

template <typename Database>
class HandlerAppend : public ::testing::Test {
 protected:
  using Tx = typename Database::Transaction;

  HandlerAppend() {
    inbox_ = db_.open_inbox(clock_);
    events_ = db_.open_events(clock_);
  }

  StreamId account(std::string_view id = "A-1") const { return StreamId(tenant_, "account", id); }

  // A dispatcher whose deposit handler appends one "deposited" event (then one
  // "fee-charged" when the amount is over 100) at the version the stream is at, and
  // then throws when `fail` is set: its events were written by then.
  InboxDispatcher dispatcher(const bool& fail) {
    HandlerRegistry handlers;
    handlers.on<Deposit>(kDepositType, [this, &fail](const Deposit& d, HandlerContext& ctx) {
      ++executions_;
      const StreamId stream(ctx.tenant(), "account", d.account);
      const std::int64_t version =
          static_cast<std::int64_t>(this->events_->load(stream).size()) - 1;
      std::vector<NewEvent> decided{{.type = "deposited", .payload = std::to_string(d.amount)}};
      if (d.amount > 100) {
        decided.push_back({.type = "fee-charged", .payload = "1"});
      }
      const AppendResult appended = this->events_->append(
          ctx.template transaction<Tx>(), stream, ExpectedVersion::from_value(version), decided);
      appended.value_or_throw();
      if (fail) {
        throw std::runtime_error("downstream refused");
      }
    });
    return InboxDispatcher(*inbox_, InboxOptions("ledger"), std::move(handlers));
  }

  bool recorded(std::string_view message_id) {
    return inbox_->is_recorded(DedupKey{tenant_.value(), "ledger", std::string(message_id)});
  }

  std::vector<std::string> types(const StreamId& stream) {
    std::vector<std::string> out;
    for (const RecordedEvent& e : this->events_->load(stream)) {
      out.push_back(e.type + ":" + e.payload);
    }
    return out;
  }

  Database db_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<InboxStore> inbox_;
  std::unique_ptr<EventStore> events_;
  TenantId tenant_{"acme"};
  TenantScope scope_{tenant_};
  int executions_ = 0;
};

using Databases = ::testing::Types<MemoryDatabase,
#ifdef DOCKET_HAVE_SQLITE
                                   SqliteDatabase
#endif
#if defined(DOCKET_HAVE_SQLITE) && defined(DOCKET_HAVE_POSTGRES)
                                   ,
#endif
#ifdef DOCKET_HAVE_POSTGRES
                                   PostgresDatabase
#endif
                                   >;
TYPED_TEST_SUITE(HandlerAppend, Databases);

TYPED_TEST(HandlerAppend, EventsCommitWithTheDedupRow) {
  const bool fail = false;
  const auto inbox = this->dispatcher(fail);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 50)), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(deposit("m-2", 500)), DispatchOutcome::kProcessed);
  EXPECT_TRUE(this->recorded("m-1"));
  EXPECT_TRUE(this->recorded("m-2"));
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"deposited:50", "deposited:500", "fee-charged:1"}));
  const ReadAllPage all = this->events_->read_all(0, 10);
  ASSERT_EQ(all.events.size(), 3u);
  EXPECT_LT(all.events[0].global_position, all.events[1].global_position);
  EXPECT_LT(all.events[1].global_position, all.events[2].global_position);
}

TYPED_TEST(HandlerAppend, AHandlerThrowLeavesNeitherDedupRowNorEvents) {
  bool fail = true;
  const auto inbox = this->dispatcher(fail);
  EXPECT_THROW(inbox.dispatch(deposit("m-1", 500)), std::runtime_error);
  EXPECT_EQ(this->executions_, 1) << "the handler ran and appended before it threw";
  EXPECT_FALSE(this->recorded("m-1"));
  EXPECT_TRUE(this->events_->load(this->account()).empty());
  EXPECT_TRUE(this->events_->read_all(0, 10).events.empty());

  fail = false;  // the transport redelivers
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 500)), DispatchOutcome::kProcessed);
  EXPECT_TRUE(this->recorded("m-1"));
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"deposited:500", "fee-charged:1"}));
}

TYPED_TEST(HandlerAppend, ARedeliveryIsSkippedAndAppendsNothing) {
  const bool fail = false;
  const auto inbox = this->dispatcher(fail);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 50)), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 50)), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(this->executions_, 1);
  EXPECT_EQ(this->types(this->account()), (std::vector<std::string>{"deposited:50"}));
}

TYPED_TEST(HandlerAppend, AFailedMessageOfABatchTakesOnlyItsOwnEvents) {
  HandlerRegistry handlers;
  handlers.on<Deposit>(kDepositType, [this](const Deposit& d, HandlerContext& ctx) {
    this->events_
        ->append(ctx.template transaction<typename TestFixture::Tx>(),
                 StreamId(ctx.tenant(), "account", "A-1"), ExpectedVersion::any(),
                 {NewEvent{.type = "deposited", .payload = std::to_string(d.amount)}})
        .value_or_throw();
    if (d.amount < 0) {
      throw std::runtime_error("negative deposit");
    }
  });
  const InboxDispatcher inbox(*this->inbox_, InboxOptions("ledger"), std::move(handlers));
  const std::vector<Envelope> batch{deposit("m-1", 10), deposit("m-2", -5), deposit("m-3", 30)};
  const auto results = inbox.dispatch_batch(batch);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_FALSE(results[1].ok());
  EXPECT_TRUE(results[2].ok());
  EXPECT_FALSE(this->recorded("m-2"));
  EXPECT_EQ(this->types(this->account()),
            (std::vector<std::string>{"deposited:10", "deposited:30"}))
      << "versions stay gap-free: the rolled-back message's version is reused";
}

TYPED_TEST(HandlerAppend, AConflictInTheHandlerIsAValueAndWritesNothing) {
  HandlerRegistry handlers;
  std::optional<VersionConflict> seen;
  handlers.on<Deposit>(kDepositType, [&](const Deposit&, HandlerContext& ctx) {
    auto& tx = ctx.template transaction<typename TestFixture::Tx>();
    const StreamId stream(ctx.tenant(), "account", "A-1");
    this->events_->append(tx, stream, ExpectedVersion::no_stream(), {NewEvent{.type = "opened"}})
        .value_or_throw();
    const AppendResult stale =
        this->events_->append(tx, stream, ExpectedVersion::no_stream(),
                              {NewEvent{.type = "opened-again"}, NewEvent{.type = "deposited"}});
    if (stale.is_conflict()) {
      seen = stale.conflict();
    }
  });
  const InboxDispatcher inbox(*this->inbox_, InboxOptions("ledger"), std::move(handlers));
  EXPECT_EQ(inbox.dispatch(deposit("m-1", 1)), DispatchOutcome::kProcessed);
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->expected_version, kNoStreamVersion);
  EXPECT_EQ(seen->actual_version, 0) << "the check sees the unit of work's own append";
  EXPECT_EQ(this->types(this->account()), (std::vector<std::string>{"opened:"}));
}

void expect_configuration_error(const std::function<void()>& call,
                                const std::vector<std::string>& mentions) {
  try {
    call();
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    for (const std::string& mention : mentions) {
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos)
          << "'" << e.what() << "' should mention '" << mention << "'";
    }
  }
}

TYPED_TEST(HandlerAppend, AnotherProvidersTransactionIsRefused) {
  using Foreign = typename TypeParam::Foreign;
  auto foreign_inbox = this->db_.foreign.open_inbox(this->clock_);
  auto unit = foreign_inbox->begin();
  expect_configuration_error(
      [&] {
        this->events_->append(unit->handler_transaction(), this->account(), ExpectedVersion::any(),
                              {NewEvent{.type = "opened"}});
      },
      {std::string(TypeParam::kProvider) + " event store",
       std::string(Foreign::Transaction::kTypeName),
       std::string(TypeParam::Transaction::kTypeName)});

  auto foreign_events = this->db_.foreign.open_events(this->clock_);
  auto provider_unit = this->inbox_->begin();
  expect_configuration_error(
      [&] {
        foreign_events->append(provider_unit->handler_transaction(), this->account(),
                               ExpectedVersion::any(), {NewEvent{.type = "opened"}});
      },
      {std::string(Foreign::kProvider) + " event store",
       std::string(TypeParam::Transaction::kTypeName)});
}

TYPED_TEST(HandlerAppend, ATransactionOnAnotherDatabaseIsRefusedAndNothingIsWritten) {
  auto other_inbox = this->db_.open_other_inbox(this->clock_);
  {
    auto unit = other_inbox->begin();
    expect_configuration_error(
        [&] {
          this->events_->append(unit->handler_transaction(), this->account(),
                                ExpectedVersion::any(), {NewEvent{.type = "opened"}});
        },
        this->db_.other_database_mentions());
  }
  EXPECT_TRUE(this->events_->load(this->account()).empty());
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
