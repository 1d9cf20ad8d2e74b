// Message types that declare their name and codec once (docket/core/message_type.h):
// handled and sent without a string, on the type's own codec or a trait's; a second
// C++ type bound to a taken name refused with both types' readable names; and the
// producer's checked transaction (UnitOfWork::transaction<T>).
#include "docket/core/message_type.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "docket/core/error.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/memory/transaction.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"

namespace docket {
namespace message_type_test {

struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";
  std::string order;
  int cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order, cents)

// A type with a codec of its own: the payload is the decimal count.
struct Counted {
  static constexpr std::string_view kMessageType = "counted";
  struct Codec {
    Counted decode(std::string_view payload) const {
      return Counted{std::stoi(std::string(payload))};
    }
    std::string encode(const Counted& c) const { return std::to_string(c.n); }
  };
  int n = 0;
};

// Another library's type, named by a trait.
namespace elsewhere {
struct Invoice {
  std::string number;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Invoice, number)
// A second C++ type that claims a name already taken.
struct OrderPlacedV2 {
  static constexpr std::string_view kMessageType = "order-placed";
  std::string order;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlacedV2, order)
}  // namespace elsewhere

}  // namespace message_type_test

template <>
struct MessageTraits<message_type_test::elsewhere::Invoice> {
  static constexpr std::string_view kMessageType = "invoice-issued";
};

namespace message_type_test {
namespace {

static_assert(NamedMessage<OrderPlaced>);
static_assert(NamedMessage<elsewhere::Invoice>);
static_assert(!NamedMessage<int>);
static_assert(kMessageTypeOf<elsewhere::Invoice> == "invoice-issued");
static_assert(std::is_same_v<MessageCodec<OrderPlaced>, JsonCodec<OrderPlaced>>);
static_assert(std::is_same_v<MessageCodec<Counted>, Counted::Codec>);

class MessageTypeTest : public ::testing::Test {
 protected:
  // Stages `send` in a unit of its own and returns the staged rows' "type:payload".
  std::vector<std::string> staged(const std::function<void(HandlerTransaction&)>& send) {
    auto unit = outbox_store_->begin();
    send(unit->transaction());
    unit->commit();
    std::vector<std::string> rows;
    for (const OutboxRecord& r : outbox_store_->read_feed(0, 100)) {
      rows.push_back(r.event_type + ":" + r.payload);
    }
    return rows;
  }

  std::unique_ptr<OutboxStore> outbox_store_ = open_outbox_store("memory:");
  Outbox outbox_{*outbox_store_};
};

TEST_F(MessageTypeTest, SendsUnderTheNameAndCodecTheTypeDeclares) {
  EXPECT_EQ(staged([&](HandlerTransaction& tx) {
              outbox_.send(tx, OrderPlaced{"O-1", 4200});
              outbox_.send(tx, Counted{7});
              outbox_.send(tx, elsewhere::Invoice{"I-9"}, {.ordering_key = "I-9"});
            }),
            (std::vector<std::string>{R"(order-placed:{"cents":4200,"order":"O-1"})", "counted:7",
                                      R"(invoice-issued:{"number":"I-9"})"}));
  EXPECT_EQ(outbox_store_->read_feed(0, 10).back().ordering_key, "I-9") << "the route as given";
}

TEST_F(MessageTypeTest, ASendWhoseMessageCarriesATypeOrPayloadIsRefused) {
  auto unit = outbox_store_->begin();
  try {
    outbox_.send(unit->transaction(), OrderPlaced{"O-1", 1}, {.event_type = "other"});
    ADD_FAILURE() << "expected InvalidInputError";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("'order-placed'"), std::string::npos) << e.what();
  }
  unit->commit();
  EXPECT_TRUE(outbox_store_->read_feed(0, 10).empty());
}

TEST_F(MessageTypeTest, HandlersNeedNoStringAndReadTheTypesCodec) {
  std::vector<std::string> seen;
  HandlerRegistry handlers;
  handlers.on([&](const OrderPlaced& e, HandlerContext&) { seen.push_back(e.order); })
      .on<Counted>([&](const Counted& c, HandlerContext&) { seen.push_back(std::to_string(c.n)); })
      .on([&](const elsewhere::Invoice& i, HandlerContext&) { seen.push_back(i.number); });
  EXPECT_TRUE(handlers.handles("order-placed"));
  EXPECT_TRUE(handlers.handles("invoice-issued"));
  auto inbox_store = memory::open_store();
  const InboxDispatcher inbox(*inbox_store, InboxOptions("billing"), std::move(handlers));
  inbox.dispatch({.message_id = "m-1",
                  .event_type = "order-placed",
                  .payload = R"({"order":"O-1","cents":1})"});
  inbox.dispatch({.message_id = "m-2", .event_type = "counted", .payload = "12"});
  inbox.dispatch(
      {.message_id = "m-3", .event_type = "invoice-issued", .payload = R"({"number":"I-9"})"});
  EXPECT_EQ(seen, (std::vector<std::string>{"O-1", "12", "I-9"}));
}

TEST_F(MessageTypeTest, ASecondTypeForATakenNameIsRefusedWithReadableNames) {
  HandlerRegistry handlers;
  handlers.on([](const OrderPlaced&, HandlerContext&) {});
  try {
    handlers.on([](const elsewhere::OrderPlacedV2&, HandlerContext&) {});
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("docket::message_type_test::OrderPlaced with codec "
                        "docket::JsonCodec<docket::message_type_test::OrderPlaced>"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("not docket::message_type_test::elsewhere::OrderPlacedV2"),
              std::string::npos)
        << what;
  }
}

TEST_F(MessageTypeTest, AProducersTransactionIsACheckedCast) {
  auto unit = outbox_store_->begin();
  EXPECT_NO_THROW(unit->transaction<memory::Transaction>());
  auto sqlite_outbox = open_outbox_store("sqlite::memory:");
  auto other = sqlite_outbox->begin();
  try {
    other->transaction<memory::Transaction>();
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("producer asked for the transaction as docket::memory::Transaction"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("provides docket::sqlite::Transaction"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace message_type_test
}  // namespace docket
