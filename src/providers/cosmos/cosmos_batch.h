// One Cosmos DB transactional batch, sent: the operations of one logical partition of one
// container (at most 100), which the service applies wholly or not at all. What the unit
// of work's commit (cosmos_unit.h) and the event store's append (cosmos_event_store.h)
// both send, with the same headers: the batch is atomic and ordered, addressed to its
// partition by the partition key header.
//
// Its answer: 200 when every operation was applied; 207 when one failed (that one with
// its own status, the others 424), nothing applied; the failing operation comes back as
// a BatchFailure for the caller to word (a 409 means something else to each). The batch
// refused whole as malformed (400) is an InvalidInputError, and any other answer is thrown
// as the client words it (cosmos_client.h). A batch is never sent twice: after an
// ambiguous failure (a timeout, a broken connection) it is thrown, as it may have been
// applied (Replay::kUnsafe).
//
// Thread-safety: a pure function over a thread-safe Client.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_BATCH_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_BATCH_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail {

// A batch to send: `operations` as the REST API takes them ({"operationType": ...,
// "id": ..., "partitionKey": ..., "resourceBody": ...}), each in `partition`.
struct Batch {
  std::string_view container;
  std::string_view partition;  // the partition key value
  const nlohmann::json& operations;
  std::string_view what;   // "append batch of 3 events to stream '...'", for errors
  std::string_view store;  // the store sending it, for errors
};

// The operation that failed a batch, nothing of which was applied.
struct BatchFailure {
  std::size_t index = 0;  // into Batch::operations
  long status = 0;        // its HTTP status
  std::string message;    // the service's message for it, "" when it gave none
};

// Sends `batch`: nullopt when it was applied, else the operation that failed it.
std::optional<BatchFailure> send_batch(const Client& client, const Batch& batch);

// send_batch for a batch of one Create and nothing else, sent as a point create, which
// the service applies as the batch would, for one request and no batch framing: the
// same answer (nullopt when created, else its failure as the batch would give it, index
// 0: 409 for an item of that id, 400 or 413 for a refused item), any other answer thrown
// as the client words it. Anything else goes to send_batch.
std::optional<BatchFailure> send_batch_or_point_create(const Client& client, const Batch& batch);

// What a batch sent by send_batch_etags did: when applied, the etag each operation's
// item was left with (one per operation, "" for one whose answer gave none, e.g. a delete);
// else the operation that failed it, nothing applied, and no etags.
struct BatchOutcome {
  std::optional<BatchFailure> failure;
  std::vector<std::string> etags;
};

// send_batch, keeping the etags an applied batch's answer gives: what a writer that
// writes the items again under If-Match (the outbox's leases) needs.
BatchOutcome send_batch_etags(const Client& client, const Batch& batch);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_BATCH_H_
