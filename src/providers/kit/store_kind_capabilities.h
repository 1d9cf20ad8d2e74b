// What each kind of store states (docket/store_capabilities.h), derived once from what
// a provider's stores can do, so that every provider's snapshot and saga stores mean
// the same by each field.
//
// Internal to docket. Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_STORE_KIND_CAPABILITIES_H_
#define DOCKET_PROVIDERS_KIT_STORE_KIND_CAPABILITIES_H_

#include "docket/store_capabilities.h"

namespace docket::kit {

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
