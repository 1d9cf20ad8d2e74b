#include "docket/inbox/handler_registry.h"

#include <gtest/gtest.h>

#include "docket/inbox/inbox_errors.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"

namespace docket {
namespace {

struct Ping {
  int n = 0;
};
void from_json(const nlohmann::json& j, Ping& ping) {
  j.at("n").get_to(ping.n);
}

struct Pong {
  int n = 0;
};
void from_json(const nlohmann::json& j, Pong& pong) {
  j.at("n").get_to(pong.n);
}

// A codec of its own: the payload is the decimal number.
struct DecimalCodec {
  Ping decode(std::string_view payload) const { return Ping{std::stoi(std::string(payload))}; }
  std::string encode(const Ping& ping) const { return std::to_string(ping.n); }
};

class HandlerRegistryTest : public ::testing::Test {
 protected:
  void run(const HandlerRegistry& registry, const Envelope& envelope) {
    auto unit = store_->begin();
    const TenantId tenant = TenantId::default_tenant();
    HandlerContext ctx(envelope, "consumer", tenant, unit->handler_transaction());
    registry.run(envelope, ctx);
  }

  std::unique_ptr<InboxStore> store_ = memory::open_store();
};

TEST_F(HandlerRegistryTest, HandlersRunInRegistrationOrderOnOneDecodedEvent) {
  std::vector<std::string> calls;
  HandlerRegistry registry;
  registry.on<Ping>(
      "ping", [&](const Ping& p, HandlerContext&) { calls.push_back("a" + std::to_string(p.n)); });
  registry.on<Ping>(
      "ping", [&](const Ping& p, HandlerContext&) { calls.push_back("b" + std::to_string(p.n)); });
  run(registry, Envelope{.message_id = "m", .event_type = "ping", .payload = R"({"n":7})"});
  EXPECT_EQ(calls, (std::vector<std::string>{"a7", "b7"}));
}

TEST_F(HandlerRegistryTest, CustomCodec) {
  int seen = 0;
  HandlerRegistry registry;
  registry.on<Ping, DecimalCodec>("ping", [&](const Ping& p, HandlerContext&) { seen = p.n; });
  run(registry, Envelope{.message_id = "m", .event_type = "ping", .payload = "42"});
  EXPECT_EQ(seen, 42);
}

TEST_F(HandlerRegistryTest, OneEventTypeTakesOneCppTypeAndOneCodec) {
  HandlerRegistry registry;
  registry.on<Ping>("ping", [](const Ping&, HandlerContext&) {});
  EXPECT_THROW(registry.on<Pong>("ping", [](const Pong&, HandlerContext&) {}), ConfigurationError);
  EXPECT_THROW((registry.on<Ping, DecimalCodec>("ping", [](const Ping&, HandlerContext&) {})),
               ConfigurationError);
  EXPECT_THROW(registry.on<Ping>("", [](const Ping&, HandlerContext&) {}), ConfigurationError);
  EXPECT_THROW(registry.on<Ping>("pong", nullptr), ConfigurationError);
  EXPECT_TRUE(registry.handles("ping"));
  EXPECT_FALSE(registry.handles("pong"));
}

TEST_F(HandlerRegistryTest, UnknownTypeNamesTheRegisteredOnes) {
  HandlerRegistry registry;
  registry.on<Ping>("ping", [](const Ping&, HandlerContext&) {});
  try {
    run(registry, Envelope{.message_id = "m-9", .event_type = "pong", .payload = "{}"});
    FAIL();
  } catch (const UnhandledEventTypeError& e) {
    EXPECT_NE(std::string(e.what()).find("registered: 'ping'"), std::string::npos) << e.what();
  }
}

TEST_F(HandlerRegistryTest, DecodeErrorCarriesTheCodecsReason) {
  HandlerRegistry registry;
  registry.on<Ping>("ping", [](const Ping&, HandlerContext&) {});
  try {
    run(registry, Envelope{.message_id = "m-9", .event_type = "ping", .payload = R"({"x":1})"});
    FAIL();
  } catch (const PayloadDecodeError& e) {
    EXPECT_EQ(e.message_id(), "m-9");
    EXPECT_NE(std::string(e.what()).find("key 'n' not found"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace docket
