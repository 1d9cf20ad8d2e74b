// The Redis claim inbox's scripts: every change of an entry is one script run, which
// reads the entry, decides as kit/claim_transition.h does, and writes, with nothing
// interleaved (Redis runs one script at a time), so that of many concurrent claimers
// exactly one gets the claim.
//
// Time: a script takes `now` from the server (TIME, in Unix microseconds) unless the
// store's clock is simulated (a test's ManualClock), whose time is passed instead:
// leases are on one clock, the server's, whatever the claimers' clocks say
// (LeaseClock::kStore, docs/claim-inbox.md "Leases and clocks").
//
// The entry script's ARGV: op, entry key, entry id, keys index, processed index, failed
// index, now ("" for the server's), then the op's own:
//   claim        tenant, message id, handler type, owner, claim id, lease (us)
//                -> {0 claimed | 1 processed | 2 held, retry count, lease_until}
//   processed    owner, claim id                     -> 1 marked | 0 not held
//   release      owner, claim id                     -> 1 | 0
//   failed       owner, claim id, error, next attempt -> 1 | 0
//   renew        owner, claim id, lease (us)         -> new lease_until | nil
//   first        tenant, message id, handler type    -> 1 marked | 0 processed already
//   retry        (none)                              -> 1 | 0 not failed
// The cleanup script's ARGV: processed index, keys index, failed index, the key prefix,
// cutoff (us, exclusive), limit, tenant ("" for every tenant) -> entries deleted.
//
// A key of another type where the entry or an index belongs is refused (an error reply
// naming it, WRONGTYPE) before anything is written.
//
// Thread-safety: constants.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_SCRIPTS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_SCRIPTS_H_

#include <string_view>

namespace docket::redis::detail {

std::string_view claim_entry_script() noexcept;
std::string_view claim_cleanup_script() noexcept;

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_CLAIM_SCRIPTS_H_
