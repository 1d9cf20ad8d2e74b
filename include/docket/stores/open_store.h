// Opens any store from a URL. Providers are separate libraries; these functions
// (library docket::stores) know the ones this build of docket includes, each by its URL
// scheme:
//
//   memory:                    process-local, for tests and prototyping; each store a
//                              database of its own (open stores on one
//                              docket::memory::Database to share one)
//   sqlite:///path/to/file.db  one SQLite file (absolute path; sqlite://rel.db is relative)
//   sqlite::memory:            a private in-memory SQLite database (one connection)
//   postgresql://user@host:port/db?sslmode=require
//                              PostgreSQL (also postgres://); the URL is the libpq
//                              connection string, every libpq parameter honoured
//   dynamodb://host:port?region=r[&table_prefix=p], dynamodb://aws?region=r
//                              DynamoDB (docs/dynamodb.md)
//   firestore://host:port?project=p[&prefix=x]
//                              Firestore (docs/firestore.md)
//   redis://:password@host:port/db?prefix=p
//                              Redis (docs/redis.md)
//   cosmos://host:port?database=d&key=k
//                              Cosmos DB (docs/cosmos.md)
//
// Stores opened on the same SQLite file, or the same PostgreSQL, DynamoDB, Firestore,
// Redis or Cosmos DB URL, share its database: an inbox handler may append events, save sagas and
// stage outbox messages through its own transaction, committed with the message's dedup record.
//
// Every function throws ConfigurationError for an unknown or unavailable scheme, listing
// the schemes of this build, and for a provider that does not offer the store asked
// for, naming the providers that do; InvalidInputError for a URL its provider refuses,
// naming the URL with any password masked (docket/stores/printable_store_url.h).
//
// `clock` stamps the times the store keeps (processed-at, claims and leases, an event's
// occurred-at when it has none, taken-at, saga times); it must outlive the store.
//
// Thread-safety: safe to call from many threads; every store returned is thread-safe.
#ifndef DOCKET_STORES_OPEN_STORE_H_
#define DOCKET_STORES_OPEN_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "docket/sagas/saga_store.h"

namespace docket {

// The transactional inbox, with the consumer checkpoints kept in the same database.
std::unique_ptr<InboxStore> open_inbox_store(std::string_view url,
                                             const Clock& clock = SystemClock::instance());

// The consumer checkpoints alone: the table an inbox store on the same URL keeps them in
// (InboxStore::checkpoints()), for a pull consumer that needs only its position.
std::unique_ptr<CheckpointStore> open_checkpoint_store(
    std::string_view url, const Clock& clock = SystemClock::instance());

// The claim inbox: an entry per (tenant, message id, handler type), claimed with a lease.
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(
    std::string_view url, const Clock& clock = SystemClock::instance());

// The outbox. Its clock stamps nothing in the store itself (the Outbox and Relay pass
// times in) but is kept for the units of work it opens.
std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url,
                                               const Clock& clock = SystemClock::instance());

// The event store: streams per (tenant, aggregate type, aggregate id).
std::unique_ptr<EventStore> open_event_store(std::string_view url,
                                             const Clock& clock = SystemClock::instance());

// The snapshot store: the latest snapshot per stream.
std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url,
                                                   const Clock& clock = SystemClock::instance());

// The saga store.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url,
                                           const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_STORES_OPEN_STORE_H_
