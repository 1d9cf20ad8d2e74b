#include "docket/inbox/claim_runner.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/observing.h"
#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/core/uuid.h"
#include "inbox/lease_keeper.h"
#include "inbox/store_step.h"
#include "inbox/text_checks.h"

namespace docket {
namespace {

std::string configuration_problem(std::string_view what, std::string_view value,
                                  std::size_t max_bytes, bool allow_empty) {
  if (allow_empty && value.empty()) {
    return {};
  }
  return inbox::text_problem(what, value, max_bytes, /*allow_blank=*/false).value_or("");
}

// The longest prefix of the valid UTF-8 `text` of at most `max` bytes that ends on a
// character boundary.
std::size_t utf8_prefix_length(std::string_view text, std::size_t max) {
  std::size_t n = std::min(max, text.size());
  while (n > 0 && n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) {
    --n;
  }
  return n;
}

// The error text kept on a failed entry: the exception's what(), legible and bounded.
// Bytes that are not UTF-8 are written as \xNN, and text past the store's limit is
// replaced by a note of how much was left out, so that recording a failure never
// fails on the failure's own text.
std::string error_text(const std::exception_ptr& error) {
  std::string what = "a non-standard exception";
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::string text = escape_invalid_utf8(what);
  if (text.size() > kMaxClaimErrorBytes) {
    const std::string note = " ... (" + std::to_string(text.size()) + " bytes in all)";
    text.resize(utf8_prefix_length(text, kMaxClaimErrorBytes - note.size()));
    text += note;
  }
  return text;
}

}  // namespace

std::string_view to_string(ClaimRunOutcome outcome) noexcept {
  switch (outcome) {
    case ClaimRunOutcome::kProcessed:
      return "processed";
    case ClaimRunOutcome::kAlreadyProcessed:
      return "already_processed";
    case ClaimRunOutcome::kHeldByAnother:
      return "held_by_another";
    case ClaimRunOutcome::kSuperseded:
      return "superseded";
    case ClaimRunOutcome::kFailed:
      return "failed";
  }
  return "unknown";
}

ClaimRunnerOptions::ClaimRunnerOptions(std::string_view handler_type, ClaimRunnerSettings settings)
    : handler_type_(handler_type),
      settings_(std::move(settings)),
      schedule_("claim runner options", settings_.backoff_base, settings_.backoff_cap,
                settings_.jitter) {
  for (const std::string& problem :
       {configuration_problem("handler type", handler_type_, kMaxHandlerTypeBytes, false),
        configuration_problem("owner", settings_.owner, kMaxClaimOwnerBytes, true)}) {
    if (!problem.empty()) {
      throw ConfigurationError("claim runner options: " + problem);
    }
  }
  if (settings_.lease <= std::chrono::microseconds::zero() || settings_.lease > kMaxClaimLease) {
    throw ConfigurationError(
        "claim runner options: lease is " + std::to_string(settings_.lease.count()) +
        " us; it must be within (0, " + std::to_string(kMaxClaimLease.count()) +
        " h] and outlast the handler");
  }
  for (const auto& [name, value] : {std::pair{"renew_up_to", settings_.renew_up_to},
                                    std::pair{"max_clock_skew", settings_.max_clock_skew}}) {
    if (value < std::chrono::microseconds::zero() || value > kMaxClaimLease) {
      throw ConfigurationError("claim runner options: " + std::string(name) + " is " +
                               std::to_string(value.count()) + " us; it must be within [0, " +
                               std::to_string(kMaxClaimLease.count()) + " h]");
    }
  }
}

ClaimRunner::ClaimRunner(ClaimInboxStore& store, ClaimRunnerOptions options, const Clock& clock)
    : store_(store),
      options_(std::move(options)),
      clock_(clock),
      owner_(options_.settings().owner.empty() ? Uuid::v7().to_string()
                                               : options_.settings().owner) {
  const ClaimRunnerSettings& settings = options_.settings();
  if (store_.capabilities().lease_clock == LeaseClock::kClaimer &&
      settings.lease <= settings.max_clock_skew) {
    throw ConfigurationError(
        "claim runner for '" + options_.handler_type() + "': the " +
        std::string(store_.provider_name()) +
        " claim inbox takes leases on each claimer's clock, so a claimer whose clock runs "
        "ahead takes a lease over early; the lease (" +
        std::to_string(settings.lease.count()) + " us) must exceed max_clock_skew (" +
        std::to_string(settings.max_clock_skew.count()) +
        " us) plus the handler's run: lengthen the lease");
  }
  if (settings.renew_up_to > std::chrono::microseconds::zero()) {
    keeper_ = std::make_unique<inbox::LeaseKeeper>(store_, settings.lease, settings.renew_up_to);
  }
}

ClaimRunner::~ClaimRunner() = default;
ClaimRunner::ClaimRunner(ClaimRunner&&) noexcept = default;

ClaimRunOutcome ClaimRunner::run(std::string_view message_id,
                                 const std::function<void()>& handler) const {
  return run(ClaimKey::for_current_tenant(message_id, options_.handler_type()), handler);
}

ClaimRunOutcome ClaimRunner::run(const ClaimKey& key, const std::function<void()>& handler) const {
  const auto claimed_at = inbox::LeaseKeeper::SteadyClock::now();
  const ClaimResult claim = inbox::store_step("to claim the entry", [&] {
    return store_.try_claim(key, owner_, options_.settings().lease);
  });
  if (claim.outcome == ClaimOutcome::kAlreadyProcessed) {
    observe(key, ClaimTransition::kAlreadyProcessed);
    return ClaimRunOutcome::kAlreadyProcessed;
  }
  if (claim.outcome == ClaimOutcome::kHeldByAnother) {
    observe(key, ClaimTransition::kHeldByAnother);
    return ClaimRunOutcome::kHeldByAnother;
  }
  observe(key, ClaimTransition::kClaimed);
  const bool observed = options_.settings().observer != nullptr;
  const auto started =
      observed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  std::chrono::nanoseconds handler_time{0};
  {
    const inbox::LeaseKeeper::Kept kept =
        keeper_ ? keeper_->keep(key, claim.token, claimed_at) : inbox::LeaseKeeper::Kept();
    try {
      handler();
    } catch (...) {
      mark_failed(key, claim, std::current_exception());
      if (observed) {
        observe(key, ClaimTransition::kFailed, std::chrono::steady_clock::now() - started);
      }
      throw;
    }
    if (observed) {
      handler_time = std::chrono::steady_clock::now() - started;
    }
  }
  const bool marked = inbox::store_step("to mark the entry processed",
                                        [&] { return store_.mark_processed(key, claim.token); });
  observe(key, marked ? ClaimTransition::kProcessed : ClaimTransition::kSuperseded, handler_time);
  return marked ? ClaimRunOutcome::kProcessed : ClaimRunOutcome::kSuperseded;
}

std::vector<ClaimBatchRun> ClaimRunner::run_batch(
    std::span<const std::string_view> message_ids,
    const std::function<void(std::size_t index)>& handler) const {
  std::vector<ClaimKey> keys;
  keys.reserve(message_ids.size());
  for (const std::string_view message_id : message_ids) {
    keys.push_back(ClaimKey::for_current_tenant(message_id, options_.handler_type()));
  }
  return run_batch(std::span<const ClaimKey>(keys), handler);
}

std::vector<ClaimBatchRun> ClaimRunner::run_batch(
    std::span<const ClaimKey> keys, const std::function<void(std::size_t index)>& handler) const {
  using SteadyClock = inbox::LeaseKeeper::SteadyClock;
  const std::chrono::microseconds lease = options_.settings().lease;
  // When each claim's lease last started, on this process's steady clock (taken before
  // the request, so never later than the store's own start).
  const SteadyClock::time_point started = SteadyClock::now();
  const std::vector<ClaimResult> claims = store_.try_claim_batch(keys, owner_, lease);
  std::vector<SteadyClock::time_point> lease_started(keys.size(), started);
  std::vector<inbox::LeaseKeeper::Kept> kept;
  if (keeper_) {
    kept.reserve(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (claims[i].outcome == ClaimOutcome::kClaimed) {
        kept.push_back(keeper_->keep(keys[i], claims[i].token, started));
      }
    }
  }
  const bool observed = options_.settings().observer != nullptr;
  // With an observer, each run handler's time, by index in `keys`.
  std::vector<std::chrono::nanoseconds> handler_times(observed ? keys.size() : 0);
  std::vector<ClaimBatchRun> runs(keys.size());
  std::vector<ClaimKey> done;
  std::vector<ClaimToken> done_tokens;
  std::vector<std::size_t> done_at;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (claims[i].outcome != ClaimOutcome::kClaimed) {
      const bool before = claims[i].outcome == ClaimOutcome::kAlreadyProcessed;
      runs[i].outcome =
          before ? ClaimRunOutcome::kAlreadyProcessed : ClaimRunOutcome::kHeldByAnother;
      observe(keys[i],
              before ? ClaimTransition::kAlreadyProcessed : ClaimTransition::kHeldByAnother);
      continue;
    }
    observe(keys[i], ClaimTransition::kClaimed);
    // Earlier handlers took time: a claim past half its lease is renewed before its
    // handler starts, and one taken over meanwhile is not run at all.
    if (!keeper_ && SteadyClock::now() - lease_started[i] >= lease / 2) {
      const SteadyClock::time_point sent = SteadyClock::now();
      if (!store_.renew(keys[i], claims[i].token, lease)) {
        runs[i].outcome = ClaimRunOutcome::kHeldByAnother;
        observe(keys[i], ClaimTransition::kSuperseded);
        continue;
      }
      lease_started[i] = sent;
    }
    const auto handler_started =
        observed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    try {
      handler(i);
    } catch (...) {
      runs[i] = {.outcome = ClaimRunOutcome::kFailed, .error = std::current_exception()};
      mark_failed(keys[i], claims[i], runs[i].error);
      if (observed) {
        observe(keys[i], ClaimTransition::kFailed,
                std::chrono::steady_clock::now() - handler_started);
      }
      continue;
    }
    if (observed) {
      handler_times[i] = std::chrono::steady_clock::now() - handler_started;
    }
    done.push_back(keys[i]);
    done_tokens.push_back(claims[i].token);
    done_at.push_back(i);
  }
  const std::vector<bool> marked = store_.mark_processed_batch(done, done_tokens);
  for (std::size_t j = 0; j < done_at.size(); ++j) {
    runs[done_at[j]].outcome =
        marked[j] ? ClaimRunOutcome::kProcessed : ClaimRunOutcome::kSuperseded;
    if (observed) {
      observe(keys[done_at[j]],
              marked[j] ? ClaimTransition::kProcessed : ClaimTransition::kSuperseded,
              handler_times[done_at[j]]);
    }
  }
  return runs;
}

void ClaimRunner::observe(const ClaimKey& key, ClaimTransition transition,
                          std::chrono::nanoseconds handler_time) const noexcept {
  detail::notify(options_.settings().observer.get(), [&](Observer& observer) {
    observer.on_claim(ClaimObservation{.handler_type = key.handler_type(),
                                       .message_id = key.message_id(),
                                       .tenant = key.tenant().value(),
                                       .transition = transition,
                                       .handler_time = handler_time});
  });
}

void ClaimRunner::mark_failed(const ClaimKey& key, const ClaimResult& claim,
                              const std::exception_ptr& error) const {
  const int attempt = static_cast<int>(claim.retry_count) + 1;
  try {
    const Timestamp next =
        clock_.now() + options_.retry_schedule().delay(key.message_id(), attempt);
    store_.mark_failed(key, claim.token, {error_text(error), next});
  } catch (const std::exception& mark_error) {
    if (options_.settings().on_mark_error) {
      options_.settings().on_mark_error(key, mark_error);
    }
  }
}

}  // namespace docket
