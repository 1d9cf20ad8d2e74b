// The claim inbox's state changes on an entry value (docket/inbox/claim_inbox_store.h), once
// for every store that reads an entry, changes it in memory and writes it back whole
// under its own atomicity (the memory store's lock; a document store's precondition
// that the entry is unchanged since it was read). Stores that change entries in place
// with a conditional statement (SQL, DynamoDB's UpdateItem) state the same rules in
// their statements.
//
// Internal to docket. Thread-safety: pure functions on values the caller owns.
#ifndef DOCKET_PROVIDERS_KIT_CLAIM_TRANSITION_H_
#define DOCKET_PROVIDERS_KIT_CLAIM_TRANSITION_H_

#include <chrono>
#include <string_view>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::kit {

// The time a claim inbox on this machine alone (memory, SQLite: LeaseClock::kStore)
// stamps and compares at: `clock` when it is simulated (a test moving time by hand),
// the machine's own otherwise, so that a process's OffsetClock skews nothing.
Timestamp machine_now(const Clock& clock);

// A new entry for `key`, received at `now` (status received, nothing else set).
ClaimEntry new_claim_entry(const ClaimKey& key, Timestamp now);

// Received, failed, or processing with its lease over (lease_until <= now).
bool claimable(const ClaimEntry& entry, Timestamp now);

// Processing under `token`'s claim (same owner and claim id), whether or not its lease
// is over.
bool held_by(const ClaimEntry& entry, const ClaimToken& token);

// Claims `entry` for `token` until now + lease when it is claimable, and returns
// kClaimed (the token is the front end's to put in the result); otherwise changes
// nothing and returns what holds it (already processed, or another claim's lease).
ClaimResult claim(ClaimEntry& entry, const ClaimToken& token, Timestamp now,
                  std::chrono::microseconds lease);

// Extends the held claim (the caller checked held_by()) to now + lease; returns the
// new lease end.
Timestamp renew(ClaimEntry& entry, Timestamp now, std::chrono::microseconds lease);

// The ends of a claim (the caller checked held_by(), or for mark_processed() that the
// entry is not processed yet: first writer wins).
void mark_processed(ClaimEntry& entry, Timestamp now);
void release(ClaimEntry& entry, Timestamp now);
void mark_failed(ClaimEntry& entry, const ClaimFailure& failure, Timestamp now);

// A failed entry due for a retry at `now`: next_attempt_at and updated_at = now, the
// retry count and last error kept. False, changing nothing, for any other status.
bool retry_now(ClaimEntry& entry, Timestamp now);

// Processed strictly before `cutoff`, of `tenant` when one is given.
bool cleanable(const ClaimEntry& entry, const TenantId* tenant, Timestamp cutoff);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_CLAIM_TRANSITION_H_
