// The order services for a store URL: the services of the URL's provider when it has
// its own (src/providers/<name>/demo/, listed by builtin_providers.cmake), else the
// SQL services (sql_services.h), which serve SQLite and PostgreSQL and refuse any
// other store naming the ones the demo runs on.
//
// Thread-safety: every function may be called from many threads.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_FOR_STORE_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_FOR_STORE_H_

#include <memory>
#include <span>
#include <string_view>

#include "order_services.h"

namespace docket::examples {

struct DemoProviderEntry {
  std::string_view name;  // the provider's registered name
  const DemoProvider* provider;
};

// Every provider of this build with services of its own (demo_providers.cc).
std::span<const DemoProviderEntry> demo_providers();

// Throws ConfigurationError for a URL no provider of this build opens (naming the URL
// forms it has), and what opening the services throws.
std::unique_ptr<OrderServices> services_for_store(std::string_view url);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SERVICES_FOR_STORE_H_
