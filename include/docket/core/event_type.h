// The one limit on event type names, shared by every component that stores or routes
// them: the inbox envelope, the outbox message and the event store. A name that one
// accepts the others accept, so an event can be appended, staged and handled under
// the same name.
//
// Thread-safety: a constant.
#ifndef DOCKET_CORE_EVENT_TYPE_H_
#define DOCKET_CORE_EVENT_TYPE_H_

#include <cstddef>

namespace docket {

// Longest event type name accepted, in bytes (a key or indexed column on every provider).
inline constexpr std::size_t kMaxEventTypeBytes = 256;

}  // namespace docket

#endif  // DOCKET_CORE_EVENT_TYPE_H_
