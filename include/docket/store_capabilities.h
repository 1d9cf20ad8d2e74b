// What a store can do, stated by the store itself so that callers (and the
// conformance suites) can rely on it, and so that a request beyond it is refused up
// front with a ConfigurationError naming the capability and the alternative, never
// half done.
//
// Thread-safety: a plain value type.
#ifndef DOCKET_STORE_CAPABILITIES_H_
#define DOCKET_STORE_CAPABILITIES_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace docket {

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
  // Feed positions (EventStore::read_all, the outbox feed) are one total order over
  // every stream. Where false, positions are opaque cursors.
  bool ordered_feed = false;
  // Entries expire on the server without a cleanup pass (a TTL attribute).
  bool server_side_expiry = false;
  // Many processes may share the store (a server or a shared file).
  bool shared_between_processes = false;

  friend bool operator==(const StoreCapabilities&, const StoreCapabilities&) = default;
};

// Throws ConfigurationError: "<store> cannot <capability>: <alternative>", e.g.
// "the Firestore inbox cannot join writes beyond 500 per commit: dispatch smaller
// batches or use the claim inbox".
[[noreturn]] void refuse_capability(std::string_view store, std::string_view capability,
                                    std::string_view alternative);

}  // namespace docket

#endif  // DOCKET_STORE_CAPABILITIES_H_
