// The number an outbox row's status is stored as, the same on every provider that keeps
// it as a number (SQLite's and PostgreSQL's status column, DynamoDB's status attribute):
//
//   0 pending   1 done   2 parked   3 skipped   4 cancelled
//
// The SQL of those stores writes these numbers as literals (WHERE status = 0, ...) and
// their partial indexes are keyed on them, so they never change.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_OUTBOX_STATUS_CODE_H_
#define DOCKET_PROVIDERS_KIT_OUTBOX_STATUS_CODE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "docket/core/error.h"
#include "docket/outbox/outbox_message.h"

namespace docket::kit {

inline std::int64_t outbox_status_code(OutboxStatus status) noexcept {
  switch (status) {
    case OutboxStatus::kPending:
      return 0;
    case OutboxStatus::kDone:
      return 1;
    case OutboxStatus::kParked:
      return 2;
    case OutboxStatus::kSkipped:
      return 3;
    case OutboxStatus::kCancelled:
      return 4;
  }
  return 0;
}

// The status stored as `code`. Throws InfrastructureError, naming `store` and the code,
// for a number docket never writes (a row changed outside docket), rather than reading
// it as some status.
inline OutboxStatus outbox_status_of_code(std::int64_t code, std::string_view store) {
  switch (code) {
    case 0:
      return OutboxStatus::kPending;
    case 1:
      return OutboxStatus::kDone;
    case 2:
      return OutboxStatus::kParked;
    case 3:
      return OutboxStatus::kSkipped;
    case 4:
      return OutboxStatus::kCancelled;
    default:
      throw InfrastructureError(
          std::string(store) + ": an outbox row has status " + std::to_string(code) +
          ", which docket never writes (0 pending, 1 done, 2 parked, "
          "3 skipped, 4 cancelled); the row was changed outside docket: restore it");
  }
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_OUTBOX_STATUS_CODE_H_
