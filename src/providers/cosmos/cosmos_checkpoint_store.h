// The Cosmos DB CheckpointStore: one item per (tenant, consumer) in the container
// {prefix}docket_consumer_checkpoints, partitioned by its id
//
//   id          t:{tenant}:{consumerId}, each term percent-encoded in full (RFC 3986:
//               injective, and clear of every character Cosmos DB refuses in an id), at
//               most 1,023 bytes
//   tenant, consumerId, position   strings      updatedAt   Unix microseconds
//
// set() is an upsert of the whole item (one advancer per consumer: the last write wins);
// get() a point read; list() a query in id order after the previous page's last id.
// (src/keys has no Cosmos DB checkpoint shape yet; this is the shape it should get.)
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_CHECKPOINT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"

namespace docket::cosmos::detail {

inline constexpr std::string_view kCheckpointContainerBase = "docket_consumer_checkpoints";

// Throws ConfigurationError for a URL parse_store_url refuses; sends nothing.
std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_CHECKPOINT_STORE_H_
