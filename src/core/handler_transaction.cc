#include "docket/core/handler_transaction.h"

#include <string>

#include "docket/core/error.h"

namespace docket {

void throw_wrong_transaction(std::string_view who, std::string_view wanted,
                             const HandlerTransaction& tx, std::string_view store) {
  throw ConfigurationError(std::string(who) + " asked for the transaction as " +
                           std::string(wanted) + " but this " + std::string(store) +
                           " store provides " + std::string(tx.type_name()) + "; write the " +
                           std::string(who) + " against the provider the store was opened with");
}

}  // namespace docket
