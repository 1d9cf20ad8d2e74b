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

// A new entry for `key`, received at `now` (status received, nothing else set).
ClaimEntry new_claim_entry(const ClaimKey& key, Timestamp now);

// Received, failed, or processing with its lease over (lease_until <= now).
bool claimable(const ClaimEntry& entry, Timestamp now);

// Processing, held by `owner` (whether or not its lease is over).
bool held_by(const ClaimEntry& entry, std::string_view owner);

// Claims `entry` for `owner` until now + lease when it is claimable, and returns
// kClaimed; otherwise changes nothing and returns what holds it (already processed, or
// another owner's lease).
ClaimResult claim(ClaimEntry& entry, std::string_view owner, Timestamp now,
                  std::chrono::microseconds lease);

// The ends of a claim (the caller checked held_by(), or for mark_processed() that the
// entry is not processed yet: first writer wins).
void mark_processed(ClaimEntry& entry, Timestamp now);
void release(ClaimEntry& entry, Timestamp now);
void mark_failed(ClaimEntry& entry, const ClaimFailure& failure, Timestamp now);

// Processed strictly before `cutoff`, of `tenant` when one is given.
bool cleanable(const ClaimEntry& entry, const TenantId* tenant, Timestamp cutoff);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_CLAIM_TRANSITION_H_
