// A container's partition key ranges: the physical partitions a query over every
// partition is run once in each of (cosmos_items.h), as the service's gateway requires for
// a query it cannot serve directly (cosmos_query_merge.h).
//
// The ranges are read with GET dbs/{db}/colls/{coll}/pkranges (resource type "pkranges",
// signed with the container's link; REST "Get Partition Key Ranges"), every page of the
// feed. A range that split lives on in the feed as the parent its children name in their
// `parents`; it is dropped, so the ids returned cover the key space once. They are read
// afresh for each query rather than cached: a container dropped and made again under its
// name may number its ranges anew, and a stale list that only overlapped would miss items
// silently, while a range split or merged since the read is refused with 410 Gone
// (substatus 1002), which the query answers by reading them again.
//
// Thread-safety: pure functions over a thread-safe Client.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_PARTITION_RANGES_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_PARTITION_RANGES_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail {

// The substatus of a 410 Gone naming a partition key range that split or merged away
// (PartitionKeyRangeGone), and of the two states a split or migration passes through
// (CompletingSplit, CompletingPartitionMigration): each means "read the ranges again".
inline constexpr int kRangeGoneSubstatus = 1002;
inline constexpr int kCompletingSplitSubstatus = 1007;
inline constexpr int kCompletingMigrationSubstatus = 1008;

// Whether `response` says the range it named is no longer one (the three above).
bool range_is_gone(const Response& response);

// The ids of `container`'s current partition key ranges, in the feed's order. Throws
// InfrastructureError when the feed is not one or names no range.
std::vector<std::string> read_partition_key_ranges(const Client& client,
                                                   std::string_view container);

// The ids of the ranges of a pkranges feed's "PartitionKeyRanges" array that no other
// range names as a parent; an id that is a whole number is read as its decimal text, and
// a range without an id of either kind is skipped.
std::vector<std::string> current_range_ids(const nlohmann::json& ranges);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_PARTITION_RANGES_H_
