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

}  // namespace docket::tool
