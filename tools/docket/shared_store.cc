#include "shared_store.h"

#include <string>

#include "docket/core/error.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"

namespace docket::tool {

void require_shared_store(std::string_view command, std::string_view url,
                          std::string_view what_is_shared, std::string_view example_url) {
  if (open_outbox_store(url)->capabilities().shared_between_processes) {
    return;
  }
  throw ConfigurationError(
      std::string(command) + ": the store '" + printable_store_url(url) +
      "' lives in memory, private to the process and the store that open it, and " +
      std::string(command) + " " + std::string(what_is_shared) +
      ", which would share nothing on it; nothing was started. Pass a store they can share: "
      "a file (" +
      std::string(example_url) +
      ") or a server (postgresql://user@host:port/db, dynamodb://HOST:PORT?region=..., "
      "firestore://HOST:PORT?project=...)");
}

void require_service_store(std::string_view command, std::string_view url,
                           const StoreCapabilities& capabilities, std::string_view store_kind) {
  if (capabilities.shared_between_processes) {
    return;
  }
  throw ConfigurationError(
      std::string(command) + ": the store '" + printable_store_url(url) +
      "' lives in memory, private to the process that opens it: this docket process would see "
      "a " +
      std::string(store_kind) + " of its own, empty, and nothing of your service's. Nothing " +
      "was read or changed. Pass the URL of the store your service's " + std::string(store_kind) +
      " lives in: a file (sqlite:///path/to/app.db) or a server (postgresql://user@host:port/db, "
      "dynamodb://HOST:PORT?region=..., firestore://HOST:PORT?project=...)");
}

}  // namespace docket::tool
