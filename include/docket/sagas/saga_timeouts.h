// The timeouts a saga is waiting for, kept in the saga's own state.
//
// A saga step schedules a timeout (SagaStepContext::schedule_timeout): a message to the
// saga itself, staged in the outbox with the step's new state and delivered no earlier
// than its due time. The coordinator records it here, by the timeout's event type, in
// the member of the saga's State named by SagaCoordinator::keeps_timeouts_in, so that
// it commits with the state in the same save, and:
//  - a timeout arrives through the inbox like any message; its step runs only when it
//    is still the one recorded under its event type (one pending timeout per event type
//    and saga: scheduling again replaces the earlier one, cancel_timeout removes it);
//    any other is stale and is marked processed without a step;
//  - a replaced or cancelled timeout, and every pending one when the saga completes, is
//    also withdrawn from the outbox once the step's unit of work committed (Outbox::
//    cancel); one already on its way is stopped by the check above instead.
//
// Keeping the record in the state (as a member the State's codec writes, like any
// other field) needs nothing of the saga store: every provider keeps it as it keeps the
// state, and `docket sagas show` prints it. JsonCodec states write it through the
// to_json/from_json below; a State with a codec of its own must write both fields of
// every entry (the coordinator checks that they survive a round trip through the codec
// when a step changed them, and refuses the step otherwise).
//
// Thread-safety: a value type; the usual rules for concurrent access apply.
#ifndef DOCKET_SAGAS_SAGA_TIMEOUTS_H_
#define DOCKET_SAGAS_SAGA_TIMEOUTS_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/core/clock.h"

namespace docket {

// One pending timeout: the outbox message that carries it and when it is due.
struct SagaTimeout {
  std::string message_id{};
  Timestamp due{};

  friend bool operator==(const SagaTimeout&, const SagaTimeout&) = default;
};

// Pending timeouts by event type.
struct SagaTimeouts {
  std::map<std::string, SagaTimeout, std::less<>> pending{};

  // The pending timeout of `event_type`, or null.
  const SagaTimeout* find(std::string_view event_type) const {
    const auto it = pending.find(event_type);
    return it == pending.end() ? nullptr : &it->second;
  }

  friend bool operator==(const SagaTimeouts&, const SagaTimeouts&) = default;
};

// JSON: {"<event type>": {"message_id": "...", "due_us": <microseconds since the epoch>}}.
void to_json(nlohmann::json& json, const SagaTimeouts& timeouts);
// Throws nlohmann::json::exception for JSON of another shape.
void from_json(const nlohmann::json& json, SagaTimeouts& timeouts);

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_TIMEOUTS_H_
