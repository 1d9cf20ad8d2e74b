#include <string>

#include "docket/core/error.h"
#include "docket/core/sql_transaction.h"

namespace docket {

void SqlParam::refuse_unsigned(std::uint64_t value) {
  throw InvalidInputError("SQL parameter " + std::to_string(value) +
                          " is above 9223372036854775807, the largest integer SQLite and "
                          "PostgreSQL store; nothing was run. Bind it as text, or keep the "
                          "value within a signed 64-bit integer.");
}

}  // namespace docket
