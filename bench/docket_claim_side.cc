#include "docket_claim_side.h"

#include <chrono>
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
    : runner_(store, runner_options(handler_type, owner)), handler_([] {}) {}

void DocketClaimSession::cycle(std::string_view message_id, ClaimCycleCounts& counts) {
  switch (runner_.run(message_id, handler_)) {
    case ClaimRunOutcome::kProcessed:
      ++counts.claimed;
      ++counts.processed;
      break;
    case ClaimRunOutcome::kSuperseded:
      ++counts.claimed;
      break;
    case ClaimRunOutcome::kAlreadyProcessed:
    case ClaimRunOutcome::kHeldByAnother:
      break;
  }
}

}  // namespace docket::bench
