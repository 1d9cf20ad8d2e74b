// What a store can do, stated by the store itself so that callers (and the
// conformance suites) can rely on it, and so that a request beyond it is refused up
// front with a ConfigurationError naming the capability and the alternative, never
// half done.
//
// Thread-safety: a plain value type.
#ifndef DOCKET_CORE_STORE_CAPABILITIES_H_
#define DOCKET_CORE_STORE_CAPABILITIES_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace docket {

// The feed a store offers over every stream (EventStore::read_feed; for the outbox,
// OutboxStore::read_feed), and so the late-commit contract its consumers rely on. A
// commit is "late" when it becomes visible after something that sorts behind it in
// the feed already did (a SQL sequence value taken before a slower transaction
// commits). Each kind's contract, in full at the SPI that offers the feed:
enum class FeedKind {
  // No feed: read_all, read_feed and the consumers built on them are refused with a
  // ConfigurationError naming this capability and the alternative.
  kNone,
  // Global positions: integers, one total order over every stream, which a cursor
  // carries as decimal text. The event store's pages end before the first position
  // whose transaction may still commit, so a consumer that resumes from a page's
  // position never skips an event (docket/eventsourcing/event_store.h); the outbox's feed shows its
  // gaps and the pull consumer holds its checkpoint at them (docket/outbox/outbox_store.h).
  kGlobalPositions,
  // Opaque cursors: no order over every stream that the store could keep without a
  // hot counter, so feed positions are the store's own encoded cursors
  // (docket/core/feed_cursor.h). A consumer that resumes from any cursor it was given never
  // skips an event that commits later: the store chooses how. It may deliver an event
  // again (at least once): consumers deduplicate by event id. Event stores only.
  kOpaqueCursors,
};

// "no feed", "global positions" or "opaque cursors".
std::string_view describe(FeedKind kind) noexcept;

// Whose clock a store's leases (claim inbox entries, the relay's outbox claims) are
// taken and compared on, and so what clock skew between claimers can do.
enum class LeaseClock {
  // Each claimer's own (the Clock the store was opened with): a claimer whose clock
  // runs S ahead takes over a lease S early. A lease must exceed the worst skew
  // between claimers plus the handler's run, and runners check their lease against
  // the skew they are told to allow (ClaimRunnerSettings::max_clock_skew).
  kClaimer,
  // The store's: the database server's clock, or for a store on this machine alone
  // the machine's, which every process sharing it reads. A claimer's skew changes
  // nothing. A simulated clock (docket/core/clock.h) is still followed, for tests.
  kStore,
};

// "claimer" or "store".
std::string_view describe(LeaseClock clock) noexcept;

struct StoreCapabilities {
  // The store's records commit in one atomic commit with the handler's (inbox) or
  // producer's (outbox) own writes. Where false, use the claim inbox.
  bool joins_handler_writes = false;
  // Handlers get an interactive transaction: they read their own writes and run
  // arbitrary statements. Where false, writes are buffered and flushed at commit.
  bool interactive_transactions = false;
  // The most writes (records, handler writes included) one atomic commit holds, and
  // the most bytes; 0 means no limit short of the database's own resources.
  std::size_t max_writes_per_commit = 0;
  std::size_t max_bytes_per_commit = 0;
  // The most bytes one record (an event, a snapshot, a saga, an entry: its keys and
  // attributes as the database counts them) takes; 0 means no limit short of the
  // database's own resources. A record beyond it is refused before anything is sent.
  std::size_t max_bytes_per_record = 0;
  // The store's feed over every stream, and so its late-commit contract (FeedKind).
  FeedKind feed = FeedKind::kNone;
  // Entries expire on the server without a cleanup pass (a TTL attribute).
  bool server_side_expiry = false;
  // Many processes may share the store (a server or a shared file).
  bool shared_between_processes = false;
  // Writes on several connections proceed at once (row locks, or none), rather than
  // one at a time under the database's lock: a pipelined relay records one batch while
  // it claims the next only where this holds (docket/outbox/relay.h), since on a store
  // with one writer the two would only queue behind each other.
  bool concurrent_writers = false;
  // Whose clock leases are on (LeaseClock).
  LeaseClock lease_clock = LeaseClock::kClaimer;

  friend bool operator==(const StoreCapabilities&, const StoreCapabilities&) = default;
};

// Throws ConfigurationError: "<store> cannot <capability>: <alternative>", e.g.
// "the Firestore inbox cannot join writes beyond 500 per commit: dispatch smaller
// batches or use the claim inbox".
[[noreturn]] void refuse_capability(std::string_view store, std::string_view capability,
                                    std::string_view alternative);

}  // namespace docket

#endif  // DOCKET_CORE_STORE_CAPABILITIES_H_
