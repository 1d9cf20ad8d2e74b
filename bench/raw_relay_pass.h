// What every document store's raw relay pass of `docket bench outbox` does alike around
// its own requests (Cosmos DB, DynamoDB, Firestore: each reads, leases and marks in its
// own): the lease it takes, the rounds of reading and leasing against concurrent relays,
// and the publish of the claimed messages in sequence order to the side's PublishLog, as
// docket's Relay publishes them.
//
// Thread-safety: pure functions over the caller's values; PublishLog is internally locked.
#ifndef DOCKET_BENCH_RAW_RELAY_PASS_H_
#define DOCKET_BENCH_RAW_RELAY_PASS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "outbox_workload.h"

namespace docket::bench {

// The relay's default lease (RelaySettings::lease), in microseconds.
inline constexpr std::int64_t kRawOutboxLeaseMicros = 30'000'000;

// What one round of a raw claim did: the messages it leased, and how many due messages
// its read found (leased by it or by another relay first).
template <typename Claimed>
struct LeaseRound {
  std::vector<Claimed> leased;
  std::size_t read = 0;
};

// Reads again when another relay leased what a read found: every round that leased fewer
// than it read lost a race, as docket's claims do (cosmos_outbox_claim.cc,
// dynamodb_outbox_claimable.cc).
inline constexpr int kRawClaimRounds = 3;
// Rounds a claim that has leased nothing makes before it gives up: each lost race means
// another relay leased, so the relays together progress; a starved relay says so by
// claiming nothing rather than spin.
inline constexpr int kRawMaxLeaseRaces = 100;

// Up to `batch` messages leased by rounds of `round(wanted)` (which reads at most `wanted`
// due messages and leases what it can: a LeaseRound<Claimed>): a round that leased all it
// read, or read none, ends the claim; otherwise the claim reads again, while it has leased
// nothing (at most kRawMaxLeaseRaces rounds), and at most kRawClaimRounds rounds once it
// has leased some.
template <typename Claimed, typename Round>
std::vector<Claimed> lease_in_rounds(std::size_t batch, Round&& round) {
  std::vector<Claimed> claimed;
  for (int r = 0;
       claimed.size() < batch && r < kRawMaxLeaseRaces && (claimed.empty() || r < kRawClaimRounds);
       ++r) {
    LeaseRound<Claimed> got = round(batch - claimed.size());
    const bool all_leased = got.leased.size() == got.read;
    std::move(got.leased.begin(), got.leased.end(), std::back_inserter(claimed));
    if (all_leased) {
      break;  // none taken by another relay, or nothing due
    }
  }
  return claimed;
}

// Puts `claimed` (each with a `sequence` and an `id`) in sequence order and records each
// id in `log`; the pass's tally so far (claimed, none published yet: the caller adds what
// its mark-done marked).
template <typename Claimed>
RelayTally publish_in_sequence_order(std::vector<Claimed>& claimed, PublishLog& log) {
  std::sort(claimed.begin(), claimed.end(),
            [](const Claimed& a, const Claimed& b) { return a.sequence < b.sequence; });
  for (const Claimed& message : claimed) {
    log.record(message.id);
  }
  return RelayTally{.passes = 1, .claimed = claimed.size(), .published = 0, .not_done = 0};
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_RAW_RELAY_PASS_H_
