// Handlers that take their provider's transaction: the registry deduces the type from
// the callable, records it, refuses a second type, and hands the transaction over.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"

namespace docket::typed_handler_test {
namespace {

struct Ping {
  int n = 0;
};
void from_json(const nlohmann::json& j, Ping& ping) {
  j.at("n").get_to(ping.n);
}

// A transaction wrapper of a provider that no store here gives.
struct OtherTransaction final : HandlerTransaction {
  static constexpr std::string_view kTypeName = "test::OtherTransaction";
  std::string_view type_name() const noexcept override { return kTypeName; }
};

const Envelope kPing{.message_id = "m-1", .event_type = "ping", .payload = R"({"n":7})"};

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

void write_ping(const Ping& p, memory::Transaction& tx, HandlerContext&) {
  tx.insert("pings", {std::to_string(p.n)});
}

class TypedHandlerTest : public ::testing::Test {
 protected:
  // Runs `registry` on kPing in a memory unit of work and returns the "pings" rows the
  // unit of work then holds.
  std::size_t run(const HandlerRegistry& registry, HandlerTransaction* tx = nullptr) {
    auto unit = store_->begin();
    const TenantId tenant = TenantId::default_tenant();
    HandlerContext ctx(kPing, "consumer", tenant, tx ? *tx : unit->handler_transaction());
    registry.run(kPing, ctx);
    return dynamic_cast<memory::Transaction&>(unit->handler_transaction()).count("pings");
  }

  std::unique_ptr<InboxStore> store_ = memory::open_store();
};

TEST_F(TypedHandlerTest, TheTransactionTypeIsDeducedFromTheSecondParameter) {
  HandlerRegistry registry;
  EXPECT_FALSE(registry.required_transaction());
  registry.on<Ping>("ping", [](const Ping& p, memory::Transaction& tx, HandlerContext& ctx) {
    EXPECT_EQ(ctx.envelope().message_id, "m-1");
    tx.insert("pings", {std::to_string(p.n)});
  });
  ASSERT_TRUE(registry.required_transaction());
  EXPECT_EQ(registry.required_transaction()->type, TransactionType::of<memory::Transaction>());
  EXPECT_EQ(registry.required_transaction()->type.name, "docket::memory::Transaction");
  EXPECT_EQ(registry.required_transaction()->required_by, "the handler of event type 'ping'");
  EXPECT_EQ(run(registry), 1u);
}

TEST_F(TypedHandlerTest, EveryCallableShapeIsDeduced) {
  HandlerRegistry registry;
  registry.on<Ping>("ping", &write_ping);
  registry.on<Ping>("ping", HandlerRegistry::TypedHandler<Ping, memory::Transaction>(
                                [](const Ping& p, memory::Transaction& tx, HandlerContext&) {
                                  tx.insert("pings", {"f" + std::to_string(p.n)});
                                }));
  int calls = 0;
  registry.on<Ping>("ping",
                    [calls](const Ping&, const memory::Transaction& tx, HandlerContext&) mutable {
                      EXPECT_EQ(tx.count("pings"), 2u);  // sees the earlier handlers' rows
                      ++calls;
                    });
  EXPECT_EQ(registry.required_transaction()->type, TransactionType::of<memory::Transaction>());
  EXPECT_EQ(run(registry), 2u);
}

TEST_F(TypedHandlerTest, AgnosticHandlersRequireNothingAndMixWithTypedOnes) {
  std::vector<std::string> calls;
  HandlerRegistry registry;
  registry.on<Ping>("ping", [&](const Ping&, HandlerContext& ctx) {
    calls.push_back("agnostic");
    ctx.transaction<memory::Transaction>().insert("pings", {"a"});
  });
  EXPECT_FALSE(registry.required_transaction());
  registry.on<Ping>("ping", [&](const Ping&, memory::Transaction& tx, HandlerContext&) {
    calls.push_back("typed");
    tx.insert("pings", {"t"});
  });
  registry.on<Ping>("pong", [&](const Ping&, HandlerContext&) { calls.push_back("pong"); });
  EXPECT_EQ(registry.required_transaction()->required_by, "the handler of event type 'ping'");
  EXPECT_EQ(run(registry), 2u);
  EXPECT_EQ(calls, (std::vector<std::string>{"agnostic", "typed"}));
}

TEST_F(TypedHandlerTest, ASecondTransactionTypeIsRefusedAtRegistrationNamingBoth) {
  HandlerRegistry registry;
  registry.on<Ping>("ping", &write_ping);
  try {
    registry.on<Ping>("pong", [](const Ping&, OtherTransaction&, HandlerContext&) {});
    FAIL() << "two transaction types in one registry";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "the handler of event type 'pong' takes test::OtherTransaction"))
        << what;
    EXPECT_TRUE(contains(what,
                         "the handler of event type 'ping' takes "
                         "docket::memory::Transaction"))
        << what;
    EXPECT_TRUE(contains(what, "ctx.transaction<T>()")) << what;
  }
  EXPECT_FALSE(registry.handles("pong"));  // nothing registered
  // Also for a name already bound: the refused handler is not added to it.
  EXPECT_THROW(registry.on<Ping>("ping", [](const Ping&, OtherTransaction&, HandlerContext&) {}),
               ConfigurationError);
  EXPECT_EQ(run(registry), 1u);
}

TEST_F(TypedHandlerTest, AnEmptyTypedHandlerIsRefused) {
  HandlerRegistry registry;
  EXPECT_THROW(
      registry.on<Ping>("ping", HandlerRegistry::TypedHandler<Ping, memory::Transaction>{}),
      ConfigurationError);
  void (*none)(const Ping&, memory::Transaction&, HandlerContext&) = nullptr;
  EXPECT_THROW(registry.on<Ping>("ping", none), ConfigurationError);
  EXPECT_FALSE(registry.required_transaction());  // a refused handler requires nothing
}

TEST_F(TypedHandlerTest, RequireTransactionJoinsTheSameRule) {
  HandlerRegistry registry;
  registry.require_transaction(TransactionType::of<memory::Transaction>(), "saga 'fulfilment'");
  registry.on<Ping>("ping", &write_ping);  // the same type: accepted
  EXPECT_EQ(registry.required_transaction()->required_by, "saga 'fulfilment'");
  try {
    registry.require_transaction(TransactionType::of<OtherTransaction>(), "saga 'refunds'");
    FAIL();
  } catch (const ConfigurationError& e) {
    EXPECT_TRUE(contains(e.what(),
                         "saga 'refunds' takes test::OtherTransaction, but saga "
                         "'fulfilment' takes docket::memory::Transaction"))
        << e.what();
  }
}

TEST_F(TypedHandlerTest, RunRefusesATransactionOfAnotherTypeBeforeAnyHandler) {
  bool ran = false;
  HandlerRegistry registry;
  registry.on<Ping>("ping", [&](const Ping&, HandlerContext&) { ran = true; });
  registry.on<Ping>("ping", &write_ping);
  OtherTransaction other;
  try {
    run(registry, &other);
    FAIL();
  } catch (const ConfigurationError& e) {
    EXPECT_TRUE(contains(e.what(), "takes docket::memory::Transaction")) << e.what();
    EXPECT_TRUE(contains(e.what(), "of type test::OtherTransaction")) << e.what();
  }
  EXPECT_FALSE(ran);
}

TEST_F(TypedHandlerTest, ADispatcherOverAStoreOfAnotherTypeRefusesAtConstruction) {
  HandlerRegistry registry;
  registry.on<Ping>("ping", [](const Ping&, OtherTransaction&, HandlerContext&) {});
  try {
    const InboxDispatcher inbox(*store_, InboxOptions("billing"), std::move(registry));
    FAIL() << "constructed";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "inbox dispatcher 'billing'")) << what;
    EXPECT_TRUE(contains(what, "the handler of event type 'ping' takes test::OtherTransaction"))
        << what;
    EXPECT_TRUE(contains(what,
                         "the memory inbox store gives handlers "
                         "docket::memory::Transaction"))
        << what;
  }
}

TEST(TransactionTypeTest, EqualExactlyForTheSameType) {
  EXPECT_EQ(TransactionType::of<memory::Transaction>(), TransactionType::of<memory::Transaction>());
  EXPECT_NE(TransactionType::of<memory::Transaction>(), TransactionType::of<OtherTransaction>());
  OtherTransaction other;
  EXPECT_TRUE(TransactionType::of<OtherTransaction>().is_type_of(other));
  EXPECT_FALSE(TransactionType::of<memory::Transaction>().is_type_of(other));
  static_assert(ProviderTransaction<memory::Transaction>);
  static_assert(!ProviderTransaction<HandlerTransaction>);
  static_assert(!ProviderTransaction<Ping>);
}

}  // namespace
}  // namespace docket::typed_handler_test
