// The claim runner over every provider: claim, run, mark processed; or mark failed
// with backoff and rethrow the handler's own exception.
#include "docket/inbox/claim_runner.h"

#include <stdexcept>

#include "claim_suite.h"
#include "docket/core/error.h"

namespace docket::conformance {
namespace {

using std::chrono::seconds;

class ClaimRunnerTest : public ClaimConformance {
 protected:
  ClaimRunner runner(std::string owner = "runner-1") {
    return ClaimRunner(*store_,
                       ClaimRunnerOptions("billing.SendInvoice", {.lease = seconds(30),
                                                                  .backoff_base = seconds(2),
                                                                  .backoff_cap = seconds(60),
                                                                  .jitter = 0.0,
                                                                  .owner = std::move(owner)}),
                       clock_);
  }
  ClaimKey runner_key(std::string_view message_id) {
    return ClaimKey::for_current_tenant(message_id, "billing.SendInvoice");
  }
};

struct GatewayDown : std::runtime_error {
  GatewayDown() : std::runtime_error("gateway down") {}
};

TEST_P(ClaimRunnerTest, RunsTheHandlerOnceAndSkipsRedeliveries) {
  const TenantScope scope(TenantId("acme"));
  int runs = 0;
  EXPECT_EQ(runner().run("m-1", [&] { ++runs; }), ClaimRunOutcome::kProcessed);
  EXPECT_EQ(runner("runner-2").run("m-1", [&] { ++runs; }), ClaimRunOutcome::kAlreadyProcessed);
  EXPECT_EQ(runs, 1);
  const ClaimEntry stored = entry(runner_key("m-1"));
  EXPECT_EQ(stored.status, ClaimStatus::kProcessed);
  EXPECT_EQ(stored.key.tenant().value(), "acme");
}

TEST_P(ClaimRunnerTest, AFailingHandlerIsMarkedFailedWithBackoffAndItsErrorPropagates) {
  EXPECT_THROW(runner().run("m-1", [] { throw GatewayDown(); }), GatewayDown);
  ClaimEntry failed = entry(runner_key("m-1"));
  EXPECT_EQ(failed.status, ClaimStatus::kFailed);
  EXPECT_EQ(failed.retry_count, 1u);
  EXPECT_EQ(failed.last_error, "gateway down");
  EXPECT_EQ(failed.next_attempt_at, clock_.now() + seconds(2));

  EXPECT_THROW(runner().run("m-1", [] { throw GatewayDown(); }), GatewayDown);
  failed = entry(runner_key("m-1"));
  EXPECT_EQ(failed.retry_count, 2u);
  EXPECT_EQ(failed.next_attempt_at, clock_.now() + seconds(4));

  int runs = 0;
  EXPECT_EQ(runner().run("m-1", [&] { ++runs; }), ClaimRunOutcome::kProcessed);
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(entry(runner_key("m-1")).retry_count, 2u);
}

TEST_P(ClaimRunnerTest, ErrorTextThatIsNotUtf8OrTooLongIsRecordedLegibly) {
  EXPECT_THROW(runner().run("bytes", [] { throw std::runtime_error("bad \xff byte"); }),
               std::runtime_error);
  EXPECT_EQ(entry(runner_key("bytes")).last_error, "bad \\xFF byte");
  const std::string huge(kMaxClaimErrorBytes * 2, 'e');
  EXPECT_THROW(runner().run("huge", [&] { throw std::runtime_error(huge); }), std::runtime_error);
  const std::string kept = entry(runner_key("huge")).last_error.value();
  EXPECT_LE(kept.size(), kMaxClaimErrorBytes);
  EXPECT_NE(kept.find(std::to_string(huge.size()) + " bytes in all"), std::string::npos);
  EXPECT_THROW(runner().run("odd", [] { throw 42; }), int);
  EXPECT_EQ(entry(runner_key("odd")).last_error, "a non-standard exception");
}

TEST_P(ClaimRunnerTest, AnEntryHeldByAnotherIsNotRun) {
  ASSERT_EQ(store_->try_claim(runner_key("m-1"), "someone-else", kLease).outcome,
            ClaimOutcome::kClaimed);
  int runs = 0;
  EXPECT_EQ(runner().run("m-1", [&] { ++runs; }), ClaimRunOutcome::kHeldByAnother);
  EXPECT_EQ(runs, 0);
}

TEST_P(ClaimRunnerTest, AHandlerThatOutlivesItsLeaseIsReportedSuperseded) {
  const auto outcome = runner().run("m-1", [&] {
    clock_.advance(seconds(31));
    ASSERT_EQ(store_->try_claim(runner_key("m-1"), "heir", kLease).outcome, ClaimOutcome::kClaimed);
  });
  EXPECT_EQ(outcome, ClaimRunOutcome::kSuperseded);
  EXPECT_EQ(entry(runner_key("m-1")).owner, "heir");
}

TEST_P(ClaimRunnerTest, BadOptionsAreRefusedAtConstruction) {
  EXPECT_THROW(ClaimRunnerOptions(""), ConfigurationError);
  EXPECT_THROW(ClaimRunnerOptions("h\xff"), ConfigurationError);
  EXPECT_THROW(ClaimRunnerOptions("h", {.lease = seconds(0)}), ConfigurationError);
  EXPECT_THROW(ClaimRunnerOptions("h", {.backoff_base = seconds(0)}), ConfigurationError);
  EXPECT_THROW(ClaimRunnerOptions("h", {.backoff_base = seconds(5), .backoff_cap = seconds(1)}),
               ConfigurationError);
  EXPECT_THROW(ClaimRunnerOptions("h", {.jitter = 1.5}), ConfigurationError);
  EXPECT_THROW(ClaimRunnerOptions("h", {.owner = std::string(kMaxClaimOwnerBytes + 1, 'o')}),
               ConfigurationError);
  EXPECT_FALSE(ClaimRunner(*store_, ClaimRunnerOptions("h")).owner().empty());
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimRunnerTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);

}  // namespace
}  // namespace docket::conformance
