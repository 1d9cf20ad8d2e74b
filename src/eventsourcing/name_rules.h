// Checks on the names that identify stored records (aggregate type and id, saga type
// and id, event type, lineage ids), shared by every front end of the event, snapshot
// and saga stores so that each words its errors the same way.
//
// Thread-safety: pure functions.
#ifndef DOCKET_SRC_EVENTSOURCING_NAME_RULES_H_
#define DOCKET_SRC_EVENTSOURCING_NAME_RULES_H_

#include <cstddef>
#include <string_view>

namespace docket::eventsourcing {

// Throws InvalidInputError, its message beginning with `what` and ending with
// `advice`, when `value` is empty, not valid UTF-8, or longer than `max_bytes`.
void require_name(std::string_view what, std::string_view value, std::size_t max_bytes,
                  std::string_view advice);

// The same for an optional value: empty is accepted.
void require_optional_name(std::string_view what, std::string_view value, std::size_t max_bytes,
                           std::string_view advice);

}  // namespace docket::eventsourcing

#endif  // DOCKET_SRC_EVENTSOURCING_NAME_RULES_H_
