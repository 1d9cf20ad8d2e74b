// The Firestore CheckpointStore: one document per (tenant, consumer) in the collection
// {prefix}docket_consumer_checkpoints, its id the checkpoint key of src/keys,
// t:{tenant}:{consumerId} with each term percent-encoded (docket/keys/checkpoint_key.h);
// fields tenant, consumerId and position (stringValue) and updatedAt (timestampValue).
//
// get is one batchGet (a strongly consistent read); set one commit that writes the
// whole document with no precondition, an upsert in a request of its own, durable when
// it returns and never part of a caller's unit of work.
//
// Thread-safety: get and set may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CHECKPOINT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"

namespace docket::firestore::detail {

inline constexpr std::string_view kCheckpointCollectionBase = "docket_consumer_checkpoints";

// Throws ConfigurationError for a URL parse_store_url refuses or a missing access
// token; sends nothing. `clock` stamps updatedAt and must outlive the store.
std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CHECKPOINT_STORE_H_
