#include "docket_claim_side.h"

#include <chrono>
#include <functional>
#include <string>
#include <utility>

namespace docket::bench {
namespace {

ClaimRunnerOptions runner_options(std::string_view handler_type, std::string_view owner) {
  ClaimRunnerSettings settings;
  settings.lease = std::chrono::duration_cast<std::chrono::microseconds>(kBenchClaimLease);
  settings.owner = std::string(owner);
  return ClaimRunnerOptions(handler_type, std::move(settings));
}

}  // namespace

DocketClaimSession::DocketClaimSession(ClaimInboxStore& store, std::string_view handler_type,
                                       std::string_view owner)
    : runner_(store, runner_options(handler_type, owner)) {}

void DocketClaimSession::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                               ClaimCycleCounts& counts) {
  // The handler captures one pointer, which std::function keeps without allocating.
  struct Work {
    ClaimEffectWriter* effect;
    std::string_view message_id;
    ClaimCycleCounts& counts;
  } work{effect, message_id, counts};
  const std::function<void()> handler = [w = &work] {
    run_effect(w->effect, w->message_id, w->counts);
  };
  switch (runner_.run(message_id, handler)) {
    case ClaimRunOutcome::kProcessed:
      ++counts.claimed;
      ++counts.processed;
      break;
    case ClaimRunOutcome::kSuperseded:
      ++counts.claimed;
      break;
    case ClaimRunOutcome::kAlreadyProcessed:
    case ClaimRunOutcome::kHeldByAnother:
      ++counts.skipped;
      break;
  }
}

}  // namespace docket::bench
