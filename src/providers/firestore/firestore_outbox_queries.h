// The queries the Firestore outbox store reads its messages by (firestore_outbox_store.h
// says which operation sends which): the status filter, the pending messages by sequence,
// the parked predecessor of a message's ordering key, and records read by a query. On the
// Cloud Firestore service the queries on status need the composite indexes
// docs/firestore.md names.
//
// Thread-safety: pure functions over a Client, which may be shared between threads.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_QUERIES_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_QUERIES_H_

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_query.h"

namespace docket::firestore::detail::outbox {

// The filter status == `status`.
nlohmann::json status_is(OutboxStatus status);

// The messages of `collection` of `status`, by sequence.
Query with_status(std::string_view collection, OutboxStatus status);

// Whether a parked message of `record`'s tenant and ordering key (which it must have)
// precedes it in `collection`: one query of at most one document.
bool parked_before(const Client& client, std::string_view collection, const OutboxRecord& record);

// The records `query` reads, each decoded as outbox_row_of does (`store` names the store
// in its errors).
std::vector<OutboxRecord> records(const Client& client, const Query& query, std::string_view store);

}  // namespace docket::firestore::detail::outbox

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_OUTBOX_QUERIES_H_
