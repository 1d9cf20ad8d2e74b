// The outbox's reads and writes of its message items (cosmos_outbox_item.h), shared by
// the store and its claim: queries across partitions restricted to docketTable
// "docket_outbox", a lookup by id, and the rewrite of one message under the etag it was
// read with, so that of concurrent writers of one message exactly one write applies.
//
// A message's partition is the unit's that staged it, which the SPI's calls do not name:
// a lookup by id is one query across partitions on the indexed id (answered from each
// partition's index, not by reading its items), and every write after it is a point
// operation in the partition the lookup gave.
//
// Thread-safety: pure functions over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_MESSAGES_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_MESSAGES_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_partition_range_cache.h"
#include "providers/kit/outbox_row.h"

namespace docket::cosmos::detail::outbox {

// Where an outbox store's messages are.
struct MessagePlace {
  const Client& client;
  std::string container;  // {prefix}docket_inbox
  std::string store;      // "Cosmos DB outbox (container '...' at ...)", for errors
};

// A message as read: its row, the partition it lives in and the etag a write presents.
struct FoundMessage {
  kit::OutboxRow row;
  std::string partition;
  std::string etag;
};

// The messages matching `condition` (SQL over `c`, ANDed to docketTable = "docket_outbox";
// its parameters beside @table), in `order` ("" or "c.{property}", ascending), at most
// `limit`; ordered ones merged over the partition key ranges (cosmos_items.h), taken from
// `range_cache` where one is given (a claim's reads), else read afresh.
std::vector<FoundMessage> query_messages(const MessagePlace& place, std::string_view condition,
                                         nlohmann::json parameters, std::string_view order,
                                         std::size_t limit,
                                         PartitionRangeCache* range_cache = nullptr);

// The message with this id, or nullopt (also for an id that is no UUID).
std::optional<FoundMessage> find_message(const MessagePlace& place, std::string_view id);

// The item of `row` in `partition`, with its id and partition key: what a replace sends.
nlohmann::json message_item(std::string_view partition, const kit::OutboxRow& row);

// Writes `changed` over `message` where it is unchanged since read; whether it did.
bool rewrite_message(const MessagePlace& place, const FoundMessage& message,
                     const kit::OutboxRow& changed);

// Lets `change` decide on `message` (true: write the changed row) and writes it unless it
// changed since read, in which case it reads it again (a point read) and starts over.
// Whether it wrote. Throws InfrastructureError when the message changed under every one
// of many attempts.
bool change_message(const MessagePlace& place, FoundMessage message,
                    const std::function<bool(kit::OutboxRow&)>& change);

}  // namespace docket::cosmos::detail::outbox

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_MESSAGES_H_
