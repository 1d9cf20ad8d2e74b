#include "chaos_queue.h"

#include "chaos_provider.h"
#include "docket/core/error.h"

namespace docket::tool {

std::unique_ptr<ChaosQueue> open_chaos_queue(const std::string& path) {
  for (const ChaosProviderEntry& entry : chaos_providers()) {
    if (entry.provider->open_queue != nullptr) {
      return entry.provider->open_queue(path);
    }
  }
  throw ConfigurationError(
      "chaos: no provider of this build keeps the run's queue (SQLite does: build it with "
      "DOCKET_PROVIDER_SQLITE)");
}

}  // namespace docket::tool
