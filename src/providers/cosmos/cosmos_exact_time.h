// How a Cosmos DB item holds a time it must give back exactly: Unix microseconds as
// decimal text ("253402300799999999"). A JSON number is read by the service (and the test
// server) as a double, which holds whole microseconds exactly only below 2^53 (the year
// 2255), so a caller's time (an event's or a message's occurredAt, which may be any
// Timestamp) is stored as text. Times docket itself sets near now and compares in
// queries (leases, due times, processedAt) stay numbers, which the range index orders.
//
// Invariant: exact_time_of(exact_time(t)) == t for every Timestamp t.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_EXACT_TIME_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_EXACT_TIME_H_

#include <nlohmann/json.hpp>
#include <optional>

#include "docket/core/clock.h"

namespace docket::cosmos::detail {

// `time` as an item holds it: decimal text of its Unix microseconds.
nlohmann::json exact_time(Timestamp time);

// The time `value` holds, or nullopt when it is not decimal text of a signed 64-bit count
// of microseconds.
std::optional<Timestamp> exact_time_of(const nlohmann::json& value);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_EXACT_TIME_H_
