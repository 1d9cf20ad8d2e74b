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

void count(ClaimRunOutcome outcome, ClaimCycleCounts& counts) {
  switch (outcome) {
    case ClaimRunOutcome::kProcessed:
      ++counts.claimed;
      ++counts.processed;
      break;
    case ClaimRunOutcome::kSuperseded:
    case ClaimRunOutcome::kFailed:  // never here: the effect's error is rethrown
      ++counts.claimed;
      break;
    case ClaimRunOutcome::kAlreadyProcessed:
    case ClaimRunOutcome::kHeldByAnother:
      ++counts.skipped;
      break;
  }
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
  count(runner_.run(message_id, handler), counts);
}

void DocketClaimSession::cycle_batch(std::span<const std::string_view> message_ids,
                                     ClaimEffectWriter* effect, ClaimCycleCounts& counts) {
  struct Work {
    ClaimEffectWriter* effect;
    std::span<const std::string_view> message_ids;
    ClaimCycleCounts& counts;
  } work{effect, message_ids, counts};
  const std::function<void(std::size_t)> handler = [w = &work](std::size_t i) {
    run_effect(w->effect, w->message_ids[i], w->counts);
  };
  for (const ClaimBatchRun& run : runner_.run_batch(message_ids, handler)) {
    if (run.error) {
      std::rethrow_exception(run.error);
    }
    count(run.outcome, counts);
  }
}

}  // namespace docket::bench
