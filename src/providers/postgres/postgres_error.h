// PostgresError: a statement or connection failure reported by PostgreSQL or libpq,
// carrying the server's SQLSTATE so that callers can tell expected conflicts (a unique
// violation, a serialization failure, a deadlock) from real infrastructure failures.
//
// Invariant: sqlstate() is the five-character SQLSTATE the server sent, or empty when the
// failure happened on the client side (connection lost, out of memory) and no server
// error was received.
// Thread-safety: immutable after construction.
#ifndef DOCKET_PROVIDERS_POSTGRES_POSTGRES_ERROR_H_
#define DOCKET_PROVIDERS_POSTGRES_POSTGRES_ERROR_H_

#include <string>
#include <string_view>
#include <utility>

#include "docket/core/error.h"

namespace docket::postgres::detail {

// SQLSTATE codes docket branches on (PostgreSQL manual, appendix A).
namespace sqlstate {
inline constexpr std::string_view kUniqueViolation = "23505";
inline constexpr std::string_view kInFailedSqlTransaction = "25P02";
inline constexpr std::string_view kSerializationFailure = "40001";
inline constexpr std::string_view kDeadlockDetected = "40P01";
inline constexpr std::string_view kAdminShutdown = "57P01";
}  // namespace sqlstate

class PostgresError : public InfrastructureError {
 public:
  PostgresError(std::string sqlstate, const std::string& message)
      : InfrastructureError(message), sqlstate_(std::move(sqlstate)) {}

  const std::string& sqlstate() const noexcept { return sqlstate_; }

  bool is_unique_violation() const noexcept { return sqlstate_ == sqlstate::kUniqueViolation; }
  // 40001 or 40P01: the transaction lost a race and may be retried as a whole.
  bool is_transient_conflict() const noexcept {
    return sqlstate_ == sqlstate::kSerializationFailure || sqlstate_ == sqlstate::kDeadlockDetected;
  }

 private:
  std::string sqlstate_;
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_POSTGRES_ERROR_H_
