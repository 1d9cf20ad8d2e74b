// Single-message dispatch: dedup, rollback on failure, the handler's own unique
// violation, tenants, unknown types and undecodable payloads.
#include <stdexcept>

#include "docket/core/tenant.h"
#include "docket/inbox/inbox_errors.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class DispatchTest : public InboxConformance {};

TEST_P(DispatchTest, FirstDeliveryIsProcessedSecondIsSkipped) {
  const auto inbox = dispatcher("billing");
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(effects(), 1);
  EXPECT_EQ(dedup_rows(), 1);
  EXPECT_EQ(executions_.load(), 1) << "a duplicate must not run handlers";
}

TEST_P(DispatchTest, TwoConsumersEachProcessOnce) {
  const auto billing = dispatcher("billing");
  const auto shipping = dispatcher("shipping");
  EXPECT_EQ(billing.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(shipping.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(billing.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(shipping.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(effects(), 2);
  EXPECT_EQ(dedup_rows(), 2);
}

TEST_P(DispatchTest, HandlerThrowLeavesNoRowNoEffectAndRedeliveryProcesses) {
  bool fail = true;
  // The effect of the first handler is written before the second one throws.
  HandlerRegistry handlers;
  fixture_->on_ping(handlers, [&](const Ping&, HandlerContext&) {
    return "effect-" + std::to_string(executions_.fetch_add(1));
  });
  handlers.on<Ping>(kPingType, [&](const Ping&, HandlerContext&) {
    if (fail) {
      throw std::runtime_error("downstream refused");
    }
  });
  const InboxDispatcher inbox(*store_, InboxOptions("billing"), std::move(handlers));
  try {
    inbox.dispatch(ping("m-1"));
    FAIL() << "the handler's exception must propagate";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "downstream refused");
  }
  EXPECT_EQ(effects(), 0);
  EXPECT_EQ(dedup_rows(), 0);
  fail = false;
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(effects(), 1);
  EXPECT_EQ(dedup_rows(), 1);
}

TEST_P(DispatchTest, HandlersOwnUniqueViolationPropagatesWithoutDedupRow) {
  HandlerRegistry handlers;
  fixture_->on_ping(handlers, [](const Ping&, HandlerContext&) { return "same"; });
  const InboxDispatcher inbox(*store_, InboxOptions("billing"), std::move(handlers));
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  EXPECT_THROW(inbox.dispatch(ping("m-2")), UniqueViolationError);
  EXPECT_EQ(dedup_rows(), 1);
  EXPECT_EQ(effects(), 1);
  const std::vector<std::string> ids{"m-1", "m-2"};
  EXPECT_EQ(store_->filter_unprocessed("billing", ids), std::vector<std::string>{"m-2"});
}

TEST_P(DispatchTest, TwoTenantsWithOneMessageIdAreIndependent) {
  const auto inbox = dispatcher("billing");
  {
    TenantScope acme(TenantId("acme"));
    EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
  }
  {
    TenantScope globex(TenantId("globex"));
    EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed);
    EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  }
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kProcessed) << "untenanted";
  TenantScope acme(TenantId("acme"));
  EXPECT_EQ(inbox.dispatch(ping("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(effects(), 3);
  EXPECT_EQ(dedup_rows(), 3);
}

TEST_P(DispatchTest, UnknownEventTypePropagatesAndIsNotRecorded) {
  const auto inbox = dispatcher("billing");
  Envelope envelope = ping("m-1");
  envelope.event_type = "pong";
  try {
    inbox.dispatch(envelope);
    FAIL() << "an unknown event type must propagate";
  } catch (const UnhandledEventTypeError& e) {
    EXPECT_EQ(e.event_type(), "pong");
    EXPECT_EQ(e.message_id(), "m-1");
    EXPECT_NE(std::string(e.what()).find("'pong'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dedup_rows(), 0);
}

TEST_P(DispatchTest, UndecodablePayloadPropagatesAndIsNotRecorded) {
  const auto inbox = dispatcher("billing");
  Envelope envelope = ping("m-1");
  envelope.payload = R"({"note": )";
  try {
    inbox.dispatch(envelope);
    FAIL() << "an undecodable payload must propagate";
  } catch (const PayloadDecodeError& e) {
    EXPECT_EQ(e.event_type(), "ping");
    EXPECT_NE(std::string(e.what()).find("m-1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dedup_rows(), 0);
  EXPECT_EQ(executions_.load(), 0);
}

TEST_P(DispatchTest, InvalidMessageIdIsRefusedBeforeAnyWrite) {
  const auto inbox = dispatcher("billing");
  EXPECT_THROW(inbox.dispatch(ping("")), InvalidInputError);
  EXPECT_THROW(inbox.dispatch(ping(std::string(kMaxMessageIdBytes + 1, 'x'))), InvalidInputError);
  EXPECT_THROW(inbox.dispatch(ping("bad\xC3")), InvalidInputError);       // truncated sequence
  EXPECT_THROW(inbox.dispatch(ping("\xED\xA0\x80")), InvalidInputError);  // encoded surrogate
  EXPECT_THROW(inbox.dispatch(ping("\xC0\xAF")), InvalidInputError);      // overlong '/'
  EXPECT_EQ(inbox.dispatch(ping(std::string(kMaxMessageIdBytes, 'x'))),
            DispatchOutcome::kProcessed);
  EXPECT_EQ(dedup_rows(), 1);
}

struct Foreign final : HandlerTransaction {
  static constexpr std::string_view kTypeName = "docket::foreign::Transaction";
  std::string_view type_name() const noexcept override { return kTypeName; }
};

TEST_P(DispatchTest, HandlerOfAnotherProviderGetsAClearError) {
  HandlerRegistry handlers;
  handlers.on<Ping>(kPingType,
                    [](const Ping&, HandlerContext& ctx) { ctx.transaction<Foreign>(); });
  const InboxDispatcher inbox(*store_, InboxOptions("billing"), std::move(handlers));
  try {
    inbox.dispatch(ping("m-1"));
    FAIL() << "the down-cast must fail";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("docket::foreign::Transaction"), std::string::npos);
    EXPECT_NE(
        std::string(e.what()).find(std::string("docket::") + std::string(store_->provider_name())),
        std::string::npos)
        << e.what();
  }
  EXPECT_EQ(dedup_rows(), 0);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, DispatchTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
