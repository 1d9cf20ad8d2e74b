// The order services for a store URL: those of the URL's provider
// (src/providers/<name>/demo/, listed by src/providers/CMakeLists.txt); a store whose
// provider has none is refused naming the stores the demo runs on.
//
// Thread-safety: every function may be called from many threads.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_FOR_STORE_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_FOR_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "docket/inbox/inbox_store.h"
#include "order_services.h"

namespace docket::examples {

struct DemoProviderEntry {
  std::string_view name;  // the provider's registered name
  const DemoProvider* provider;
};

// Every provider of this build with order services, in builtin_providers.cmake's order
// (demo_providers.cc).
std::span<const DemoProviderEntry> demo_providers();

// Throws ConfigurationError for a URL no provider of this build opens (naming the URL
// forms it has) or whose provider has no order services (naming the example URLs of
// those that have), and what opening the services throws.
std::unique_ptr<OrderServices> services_for_store(std::string_view url);

// The rows of `table` (one of docket's own, e.g. docket_outbox) on `store`, counted by
// its provider's demo part; nullopt when that counts none.
std::optional<std::int64_t> table_rows(InboxStore& store, std::string_view table);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_FOR_STORE_H_
