// Finding the Redis unit behind a HandlerTransaction (redis_joined_unit.h).
#include "providers/redis/redis_joined_unit.h"

#include <string>

#include "docket/core/error.h"
#include "docket/redis/transaction.h"
#include "providers/redis/redis_transaction_access.h"

namespace docket::redis::detail {

Unit& joined_unit(HandlerTransaction& tx, const RedisUrl& url, std::string_view store,
                  std::string_view operation) {
  const std::string refusal = std::string(store) + " cannot " + std::string(operation) +
                              " through a " + std::string(tx.type_name()) + ": ";
  auto* redis_tx = dynamic_cast<redis::Transaction*>(&tx);
  Unit* unit =
      redis_tx == nullptr ? nullptr : dynamic_cast<Unit*>(&TransactionAccess::unit_of(*redis_tx));
  if (unit == nullptr) {
    throw ConfigurationError(refusal +
                             "it writes only in a docket::redis::Transaction of a Redis unit of "
                             "work; begin the unit on a Redis store of the same URL");
  }
  const RedisUrl& theirs = unit->url();
  if (theirs.server() != url.server() || theirs.prefix != url.prefix) {
    throw ConfigurationError(refusal + "the unit of work commits to " + theirs.server() +
                             " under prefix '" + theirs.prefix + "', the store lives at " +
                             url.server() + " under prefix '" + url.prefix +
                             "'; open both stores on one URL so that they commit together");
  }
  if (unit->ended()) {
    throw InvalidInputError(std::string(store) +
                            ": the unit of work has committed already, so this would commit "
                            "alone; do it before commit(), or in a new unit of work");
  }
  return *unit;
}

}  // namespace docket::redis::detail
