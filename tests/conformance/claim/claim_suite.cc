#include "claim_suite.h"

#include <atomic>
#include <barrier>
#include <thread>
#include <vector>

#include "conformance/fixture_registry.h"

namespace docket::conformance {

void ClaimConformance::SetUp() {
  fixture_ = GetParam().make();
  store_ = fixture_->open(clock_);
  store_->migrate();
}

ClaimKey ClaimConformance::key(std::string_view message_id, std::string_view tenant,
                               std::string_view handler) {
  return ClaimKey(TenantId(tenant), message_id, handler);
}

ClaimEntry ClaimConformance::entry(const ClaimKey& key) {
  auto found = store_->find(key);
  if (!found) {
    ADD_FAILURE() << "no entry for message " << key.message_id();
    return ClaimEntry(key);
  }
  return *found;
}

ClaimToken ClaimConformance::token(const ClaimKey& key, std::string_view owner) {
  const auto found = store_->find(key);
  return ClaimToken{.owner = std::string(owner),
                    .claim_id = found && found->claim_id ? *found->claim_id : "no-such-claim"};
}

std::vector<ClaimToken> ClaimConformance::tokens(std::span<const ClaimKey> keys,
                                                 std::string_view owner) {
  std::vector<ClaimToken> out;
  for (const ClaimKey& key : keys) {
    out.push_back(token(key, owner));
  }
  return out;
}

void ClaimConformance::process(const ClaimKey& key) {
  const ClaimResult claim = store_->try_claim(key, "setup", kLease);
  ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_->mark_processed(key, claim.token));
}

int ClaimConformance::run_together(int threads, const std::function<void(int)>& work) {
  std::barrier start(threads);
  std::atomic<int> errors = 0;
  std::vector<std::thread> running;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      start.arrive_and_wait();
      try {
        work(t);
      } catch (const std::exception& ex) {
        ADD_FAILURE() << ex.what();
        ++errors;
      }
    });
  }
  for (auto& thread : running) {
    thread.join();
  }
  return errors;
}

std::string claim_provider_name(const ::testing::TestParamInfo<ClaimProviderCase>& info) {
  return info.param.name;
}

void PrintTo(const ClaimProviderCase& provider, std::ostream* os) {
  *os << provider.name;
}

std::vector<ClaimProviderCase> all_claim_providers() {
  return FixtureRegistry<ClaimProviderCase>::all();
}

std::vector<ClaimProviderCase> multi_process_claim_providers() {
  return FixtureRegistry<ClaimProviderCase>::where(
      [](const ClaimProviderCase& provider) { return provider.multi_process; });
}

}  // namespace docket::conformance
