// One outbox message as the Redis outbox keeps it: a hash at P outbox:message:{id}
// (redis_keyspace.h) whose fields are the record's, each a text (times and numbers in
// decimal, times in Unix microseconds; the status as kit/outbox_status_code.h numbers
// it; headers as kit/outbox_headers.h encodes them), an optional field absent when the
// record has none, and three fields of docket's own:
//
//   sequence     written by the commit script when the unit commits (INCR)
//   lease_token  the relay's claim token, "" when not leased
//   lease_until  Unix microseconds, "0" when not leased
//   order_key    the key of the message's ordering-key set, "" when it has none (the
//                scripts read it instead of composing keys)
//
// The scripts (redis_outbox_scripts.h) read and write these field names.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_ROW_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_ROW_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/kit/outbox_row.h"

namespace docket::redis::detail {

// The fields, name then value, of a freshly staged `record` (status pending, no
// attempts, not leased) whose ordering-key set is `order_key`; the sequence is left to
// the commit script.
std::vector<std::string> staged_outbox_fields(const OutboxRecord& record,
                                              std::string_view order_key);

// The row a hash's fields (HGETALL's name, value, ... pairs) hold. Throws
// InfrastructureError naming `store` and the message when a field docket writes is
// missing or malformed (a hash changed outside docket).
kit::OutboxRow outbox_row_of(std::span<const std::string> fields, std::string_view store);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_OUTBOX_ROW_H_
