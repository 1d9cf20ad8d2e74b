// The outbox claim of the stores whose pending messages come from an eventually
// consistent index or query in sequence order (DynamoDB, Cosmos DB): which pending
// messages a relay may lease, in what order, and the rounds of leases. The provider
// gives its reads and its conditional lease writes through KeyOrderedSource; the
// decisions are made here, once.
//
// Invariants of the messages select_claimable() returns, lowest sequence first:
//   - each is leasable (the source says so: due, not leased) and not one the claim tried
//     already in an earlier round;
//   - per (tenant, ordering key), at most one, and only the first message of that key met
//     in sequence order (the key's earliest pending one, which holds every later one,
//     whether or not it may be leased itself);
//   - none of a key that has a parked message of a lower sequence;
//   - none the source's key items hold back (held_back(): a lower sequence of its key is
//     unpublished, whether or not the index shows it yet);
//   - at most `wanted`, read from at most kClaimPages pages: past that many pages of
//     messages it may not lease it settles for fewer.
// A message stops holding its key only by a committed complete, skip, cancel or purge, so
// a read that is behind holds a key longer than needed, never releases it early.
//
// claim_key_ordered() leases the selection through the source (each lease conditional on
// the message as read, so of concurrent relays exactly one leases it); where others took
// some, it selects again, at most kClaimRounds times, and returns what it leased, lowest
// sequence first.
//
// Thread-safety: the functions keep no state; a source is used by one claim at a time.
#ifndef DOCKET_PROVIDERS_KIT_KEY_ORDERED_CLAIM_H_
#define DOCKET_PROVIDERS_KIT_KEY_ORDERED_CLAIM_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/outbox/outbox_message.h"

namespace docket::kit {

// How many times a claim selects again when other relays leased candidates it selected.
inline constexpr int kClaimRounds = 3;
// How many pages of pending messages one selection reads past messages it may not lease
// (in backoff, leased, or held by their key) before it settles for fewer.
inline constexpr int kClaimPages = 8;
// The fewest pending messages a page reads.
inline constexpr std::size_t kMinClaimPage = 32;

// A (tenant, ordering key).
using TenantOrderingKey = std::pair<std::string, std::string>;

// The lowest parked sequence of each (tenant, ordering key) with a parked message.
using ParkedKeyHeads = std::map<TenantOrderingKey, std::int64_t>;

// Counts a parked message of `key` at `sequence` into `heads` (the lowest one stays).
void note_parked(ParkedKeyHeads& heads, TenantOrderingKey key, std::int64_t sequence);

// A pending message as a page read it, and whether it may be leased now (due, not leased).
struct PendingMessage {
  OutboxRecord record{};
  bool leasable = false;
};

// One page of pending messages: every pending message after the page's `after` up to the
// last of `messages`, lowest sequence first. `next_after`: where the next page starts;
// nullopt when the page read every pending message left.
struct PendingPage {
  std::vector<PendingMessage> messages{};
  std::optional<std::int64_t> next_after{};
};

// What a provider gives the claim: its reads and its lease writes.
class KeyOrderedSource {
 public:
  virtual ~KeyOrderedSource() = default;
  // The lowest parked sequence of each (tenant, ordering key) with a parked message.
  virtual ParkedKeyHeads parked_key_heads() = 0;
  // The pending messages after sequence `after`, about `page` of them (see PendingPage).
  virtual PendingPage pending_after(std::int64_t after, std::size_t page) = 0;
  // For each of `candidates` (keyed ones first of their key), whether a consistent read
  // of its key's state holds it back. None by default: a store whose staging makes commit
  // order per key equal to sequence order needs no such read.
  virtual std::vector<bool> held_back(std::span<const OutboxRecord> candidates);
  // Leases each of `candidates` under a condition on the message as read: the record as
  // leased, or nullopt where another relay took it or it changed since read.
  virtual std::vector<std::optional<OutboxRecord>> lease(
      std::span<const OutboxRecord> candidates) = 0;

 protected:
  KeyOrderedSource() = default;
  KeyOrderedSource(const KeyOrderedSource&) = default;
  KeyOrderedSource& operator=(const KeyOrderedSource&) = default;
};

// At most `wanted` messages `source` holds that a claim may lease now, none of `tried`,
// lowest sequence first (the invariants above).
std::vector<OutboxRecord> select_claimable(KeyOrderedSource& source, std::size_t wanted,
                                           const std::set<std::string>& tried);

// Leases at most `limit` messages through `source`; returns them lowest sequence first.
// Throws what the source throws.
std::vector<OutboxRecord> claim_key_ordered(KeyOrderedSource& source, std::size_t limit);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_KEY_ORDERED_CLAIM_H_
