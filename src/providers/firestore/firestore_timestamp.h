// Firestore's timestamps as RFC 3339 text: what a timestampValue, an updateTime or a
// readTime holds. docket writes them with format_timestamp() (docket/core/clock.h: UTC,
// microseconds); Firestore answers with up to nanoseconds, or fewer digits.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_TIMESTAMP_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_TIMESTAMP_H_

#include <optional>
#include <string_view>

#include "docket/core/clock.h"

namespace docket::firestore::detail {

// The instant of RFC 3339 text as Firestore writes it ("2026-12-02T10:49:19Z",
// "...19.1Z" up to nanoseconds, or with a "+01:00" offset), truncated to microseconds;
// nullopt for anything else.
std::optional<Timestamp> parse_rfc3339(std::string_view text);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_TIMESTAMP_H_
