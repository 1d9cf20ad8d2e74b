// The PostgreSQL provider (library docket::postgres): the inbox with consumer
// checkpoints and the outbox, over libpq directly.
//
// Each unit of work is one READ COMMITTED transaction on a pooled connection. The
// dedup row is written with INSERT ... ON CONFLICT DO NOTHING: a concurrent delivery of
// the same key waits for the first transaction and then sees it as a duplicate, so
// the answer is final without table locks. Statements are prepared once per
// connection. The schema (component "inbox": docket_inbox_messages,
// docket_consumer_checkpoints) is created in the connection's search_path on first use
// or by migrate(), recorded in docket_schema_version.
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_POSTGRES_STORE_H_
#define DOCKET_POSTGRES_STORE_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"

namespace docket::postgres {

struct StoreOptions {
  // Any libpq connection string: postgresql://user@host:port/db?sslmode=require, or
  // keyword=value pairs ("host=... dbname=... options=-csearch_path=myschema").
  std::string conninfo;
  // Connections kept open at most; further callers wait for one to be returned.
  std::size_t max_connections = 10;
  // How long a caller waits for a pooled connection before InfrastructureError.
  std::chrono::milliseconds acquire_timeout{30'000};
};

// Throws ConfigurationError for a connection string libpq cannot parse,
// max_connections of 0 or a negative timeout. Connects and migrates on first use (or
// by migrate()).
std::unique_ptr<InboxStore> open_store(StoreOptions options,
                                       const Clock& clock = SystemClock::instance());

// open_store with default options.
std::unique_ptr<InboxStore> open_store(std::string conninfo,
                                       const Clock& clock = SystemClock::instance());

// The outbox (table docket_outbox, sequence an identity column) in the database and
// search_path of options.conninfo: a producer's rows and its messages commit together
// in units of work from its begin(), and an inbox handler on a store over the same
// database and search_path may stage follow-up messages through its own transaction.
// Relays claim with FOR UPDATE SKIP LOCKED, so several relays (threads or processes)
// share the work and never publish one message at the same moment. Sequences may
// commit out of order: a pull consumer re-reads behind its checkpoint (see
// docket/outbox/pull_consumer.h). Same refusals as open_store.
std::unique_ptr<OutboxStore> open_outbox_store(StoreOptions options,
                                               const Clock& clock = SystemClock::instance());

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_STORE_H_
