// How a Redis store (the outbox; the event and saga stores where they append in a
// handler's unit) finds the unit of work behind a HandlerTransaction: it must be a
// docket::redis::Transaction of a unit on the same server, database and prefix as the
// store, for their writes to go in that unit's one commit script run; and the unit must
// not have committed, or what is staged would never be written.
//
// Thread-safety: as the unit: the thread running it.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_JOINED_UNIT_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_JOINED_UNIT_H_

#include <string_view>

#include "docket/core/handler_transaction.h"
#include "providers/redis/redis_unit.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::detail {

// The unit under `tx`. Throws ConfigurationError naming `store` and `operation` ("stage
// a message") when `tx` is another provider's transaction or a unit of another server,
// database or prefix; InvalidInputError when the unit has committed.
Unit& joined_unit(HandlerTransaction& tx, const RedisUrl& url, std::string_view store,
                  std::string_view operation);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_JOINED_UNIT_H_
