// The claim-inbox conformance suite's test base: a fresh store per test on the
// provider under test, a manual clock, and helpers to name keys and read entries.
#ifndef DOCKET_TESTS_CONFORMANCE_CLAIM_CLAIM_SUITE_H_
#define DOCKET_TESTS_CONFORMANCE_CLAIM_CLAIM_SUITE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claim_fixture.h"

namespace docket::conformance {

class ClaimConformance : public ::testing::TestWithParam<ClaimProviderCase> {
 protected:
  void SetUp() override;

  // A key of tenant "acme" (or `tenant`) for handler "billing.Invoice".
  static ClaimKey key(std::string_view message_id, std::string_view tenant = "acme",
                      std::string_view handler = "billing.Invoice");

  // The stored entry, which must exist.
  ClaimEntry entry(const ClaimKey& key);

  // The token of `key`'s current claim as stored, presented under `owner`'s name: the
  // holder's own token when `owner` holds it, another's claim id under a wrong name
  // when not. An entry that is not processing gives a claim id nobody holds.
  ClaimToken token(const ClaimKey& key, std::string_view owner);
  std::vector<ClaimToken> tokens(std::span<const ClaimKey> keys, std::string_view owner);

  // Claims, marks processed and checks both worked, at the clock's current time.
  void process(const ClaimKey& key);

  // Runs work(t) for t in [0, threads) on that many threads released together by a
  // barrier; an exception a thread throws is a test failure. Returns how many threw.
  static int run_together(int threads, const std::function<void(int)>& work);

  static constexpr std::chrono::seconds kLease{30};

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<ClaimFixture> fixture_;
  std::unique_ptr<ClaimInboxStore> store_;
};

// "memory", "sqlite", ... as the test name suffix.
std::string claim_provider_name(const ::testing::TestParamInfo<ClaimProviderCase>& info);

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_CLAIM_CLAIM_SUITE_H_
