// The Redis SagaStore: one hash per saga (redis_saga_fields.h) under a key src/keys
// composes with the tenant in it, so each tenant has its own saga for one id; every
// saga's member in a key index (a sorted set, scores 0, byte order) and each completed
// one's in a completed index by completed_at (redis_keyspace.h).
//
//   save   through a Redis unit of work (redis_unit.h): the saga read (HGETALL),
//          SagaStore::next_record decides (conflict, completed, or the new record), and
//          the save goes to the commit script, which writes it only where the saga is
//          still at the version read (else a conflict, nothing written): two round
//          trips, and of two saves expecting one version at most one succeeds
//   load   HGETALL
//   inside a handler's unit (the docket::redis::Transaction of an inbox or outbox
//          store on the same URL): kit/unit_sagas.h, the saga read once per unit and
//          its latest save written by the unit's one script run under the same check
//          (SagaConflictError refuses the whole unit)
//   list   the key index in byte order (ZRANGEBYLEX, one tenant's range when the
//          request names one, behind the position's member), each page's hashes read
//          in the same script run, filtered by status, type and update time here; key
//          order is the escaped key's byte order
//   purge  one script run: the completed index below the cutoff, oldest completion
//          first, for one tenant skipping the others', each saga deleted with its
//          index entries
//
// Capabilities: joins handler writes (its transaction type is docket::redis::
// Transaction), no interactive transaction, 1 GB per commit and 512 MB per value, no
// feed, shared between processes, one writer at a time.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_SAGA_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_SAGA_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/sagas/saga_store.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_SAGA_STORE_H_
