// The ambient message context during and after dispatch, and trace context handling.
#include <stdexcept>

#include "docket/core/message_context.h"
#include "suite.h"

namespace docket::conformance {
namespace {

class ContextTest : public InboxConformance {};

constexpr const char* kValidTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST_P(ContextTest, HandlersSeeTheMessageAndTheOuterContextIsRestoredAfterFailure) {
  MessageContextScope outer(MessageContext{.message_id = "outer",
                                           .consumer_id = "app",
                                           .correlation_id = "order-7",
                                           .causation_id = std::nullopt,
                                           .trace = std::nullopt});
  MessageContext seen;
  const auto inbox = dispatcher("billing", [&](const Ping&, HandlerContext&) {
    seen = *MessageContextScope::current();
    throw std::runtime_error("fail after looking");
  });
  Envelope envelope = ping("m-1");
  envelope.causation_id = "m-0";
  EXPECT_THROW(inbox.dispatch(envelope), std::runtime_error);
  EXPECT_EQ(seen.message_id, "m-1");
  EXPECT_EQ(seen.consumer_id, "billing");
  EXPECT_EQ(seen.causation_id, "m-0");
  EXPECT_EQ(seen.correlation_id, "order-7") << "the application's correlation stays visible";
  ASSERT_NE(MessageContextScope::current(), nullptr);
  EXPECT_EQ(MessageContextScope::current()->message_id, "outer");
}

TEST_P(ContextTest, ContextIsClearedAfterSuccessAndDuplicate) {
  std::optional<std::string> correlation;
  const auto inbox = dispatcher("billing", [&](const Ping&, HandlerContext&) {
    correlation = MessageContextScope::current()->correlation_id;
  });
  Envelope envelope = ping("m-1");
  envelope.correlation_id = "checkout-42";
  EXPECT_EQ(inbox.dispatch(envelope), DispatchOutcome::kProcessed);
  EXPECT_EQ(correlation, "checkout-42");
  EXPECT_EQ(MessageContextScope::current(), nullptr);
  EXPECT_EQ(inbox.dispatch(envelope), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(MessageContextScope::current(), nullptr);
}

TEST_P(ContextTest, MalformedTraceparentIsIgnoredAndProcessingContinues) {
  std::vector<bool> had_trace;
  const auto inbox = dispatcher("billing", [&](const Ping&, HandlerContext&) {
    had_trace.push_back(MessageContextScope::current()->trace.has_value());
  });
  Envelope malformed = ping("m-1");
  malformed.traceparent = "00-not-a-trace-01";
  malformed.tracestate = "vendor=1";
  EXPECT_EQ(inbox.dispatch(malformed), DispatchOutcome::kProcessed);
  Envelope valid = ping("m-2");
  valid.traceparent = kValidTraceparent;
  EXPECT_EQ(inbox.dispatch(valid), DispatchOutcome::kProcessed);
  EXPECT_EQ(had_trace, (std::vector<bool>{false, true}));
  EXPECT_EQ(effects(), 2);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, ContextTest, ::testing::ValuesIn(all_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance
