// The scratch databases (tests/support/scratch_database.h) a tool test runs on: those of
// the providers whose registration offers the stores the test needs, so that no test
// names a provider and a provider that offers fewer stores (Redis: the inboxes and the
// checkpoints) joins exactly the tests it can pass.
//
// Thread-safety: reads the registries, which are complete before main.
#ifndef DOCKET_TESTS_TOOL_SCRATCH_STORES_H_
#define DOCKET_TESTS_TOOL_SCRATCH_STORES_H_

#include <functional>
#include <vector>

#include "conformance/fixture_registry.h"
#include "providers/registry.h"
#include "support/scratch_database.h"

namespace docket::testing {

// The scratch databases whose provider `offers` accepts.
inline std::vector<test_support::ScratchDatabaseCase> scratch_databases_offering(
    const std::function<bool(const providers::ProviderRegistration&)>& offers) {
  return conformance::FixtureRegistry<test_support::ScratchDatabaseCase>::where(
      [&offers](const test_support::ScratchDatabaseCase& scratch) {
        for (const providers::ProviderRegistration* provider :
             providers::Registry::builtin().providers()) {
          if (provider->name == scratch.provider) {
            return offers(*provider);
          }
        }
        return false;
      });
}

// Those of the providers that run the order pipeline of `docket demo` and `docket chaos`:
// an inbox, an outbox, an event store and a saga store.
inline std::vector<test_support::ScratchDatabaseCase> scratch_databases_for_the_pipeline() {
  return scratch_databases_offering([](const providers::ProviderRegistration& provider) {
    return provider.inbox != nullptr && provider.outbox != nullptr && provider.event != nullptr &&
           provider.saga != nullptr;
  });
}

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_SCRATCH_STORES_H_
