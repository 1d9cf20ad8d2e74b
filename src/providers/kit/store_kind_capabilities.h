// What each kind of store states (docket/core/store_capabilities.h), derived once from what
// a provider's stores can do, so that every provider's snapshot and saga stores mean
// the same by each field.
//
// Internal to docket. Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_STORE_KIND_CAPABILITIES_H_
#define DOCKET_PROVIDERS_KIT_STORE_KIND_CAPABILITIES_H_

#include <cstddef>

#include "docket/core/store_capabilities.h"

namespace docket::kit {

// What one commit of a document provider's unit of work may hold (DynamoDB's
// TransactWriteItems, Firestore's commit), and its largest record.
struct UnitLimits {
  std::size_t max_writes = 0;
  std::size_t max_bytes = 0;
  std::size_t max_record_bytes = 0;
};

// An inbox or outbox store of a document provider whose unit of work is one buffered
// commit: it joins handlers' writes, offers no interactive transaction, is shared
// between processes and expires nothing on the server; `feed` is the outbox's global
// positions, or none.
constexpr StoreCapabilities buffered_commit_capabilities(UnitLimits limits,
                                                         FeedKind feed) noexcept {
  return {.joins_handler_writes = true,
          .interactive_transactions = false,
          .max_writes_per_commit = limits.max_writes,
          .max_bytes_per_commit = limits.max_bytes,
          .max_bytes_per_record = limits.max_record_bytes,
          .feed = feed,
          .server_side_expiry = false,
          .shared_between_processes = true,
          .concurrent_writers = true};
}

// A saga store's: the provider's, without a feed (a saga store has none).
// joins_handler_writes says that its overloads taking a HandlerTransaction work in the
// provider's transactions (SagaStore::transaction_type()); a provider whose saga store
// does not join them clears it.
constexpr StoreCapabilities saga_store_capabilities(StoreCapabilities provider) noexcept {
  provider.feed = FeedKind::kNone;
  return provider;
}

// A snapshot store's: where the provider's stores live and their limits; no feed, and
// no transaction to join or to offer (a snapshot is saved on its own).
constexpr StoreCapabilities snapshot_store_capabilities(StoreCapabilities provider) noexcept {
  provider.joins_handler_writes = false;
  provider.interactive_transactions = false;
  provider.feed = FeedKind::kNone;
  return provider;
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_STORE_KIND_CAPABILITIES_H_
