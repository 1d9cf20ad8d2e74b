// The Cosmos DB InboxStore: the transactional inbox on one container, {prefix}docket_inbox,
// partitioned by "/pk" = the message's tenant, which holds the dedup items and the
// handlers' own items (docket::cosmos::Transaction): a unit of work stages both and sends
// them as ONE transactional batch (cosmos_unit.h), the dedup item a create that the
// service refuses when the message was recorded already, so a message's effects and its
// record commit together or not at all.
//
// The dedup item: id the inbox dedup id of src/keys for Cosmos DB
// ({tenant}:{messageId}:{consumerId}, '%' ':' '/' '\' '?' '#', space and controls escaped),
// fields docketTable ("docket_inbox_messages", telling docket's items from the
// application's), tenant, consumerId, messageId, eventType, occurredAt (the message's
// time, Unix microseconds as decimal text: exact for any time, cosmos_exact_time.h),
// processedAt (Unix microseconds, a number: the store's clock, compared by purge),
// source, causationId, correlationId (string or null).
//
//   try_record / is_recorded   a point read of the dedup item (or the unit's own staging)
//   record_at_commit           stages the create unread
//   recorded_among, filter_unprocessed  one query of the tenant's partition per 100 ids
//   purge                      a query across partitions of processedAt < cutoff, each
//                              item deleted under If-Match (kept when changed since)
//   purge_consumer             the same on consumerId (and the tenant's partition)
//   checkpoints                the Cosmos DB checkpoint store on the same URL
//
// Capabilities: joins handler writes (one batch: 100 operations, 2 MB), no interactive
// transaction, no feed, shared between processes.
//
// Thread-safety: every member may be called from many threads (and processes) at once; a
// unit of work belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_INBOX_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"

namespace docket::cosmos::detail {

inline constexpr std::string_view kInboxContainerBase = "docket_inbox";
// The property telling docket's dedup items from the application's items.
inline constexpr std::string_view kTableProperty = "docketTable";

// Throws ConfigurationError for a URL parse_store_url refuses; sends nothing. `clock`
// stamps processedAt and must outlive the store.
std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_INBOX_STORE_H_
