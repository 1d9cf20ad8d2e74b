// What a storage provider lends `docket chaos` beyond its stores: the run's queue
// (chaos_queue.h) and faults of its server (server_faults.h). Each provider that lends
// any defines, in its folder (src/providers/<name>/chaos/, the library
// docket_<name>_chaos, listed by src/providers/CMakeLists.txt),
//
//   const docket::tool::ChaosProvider& docket::<name>::chaos_provider();
//
// and chaos_providers() lists them, so that the tool names no provider: SQLite's keeps
// the queue, PostgreSQL's faults its server.
//
// Thread-safety: the entries are immutable; the functions they hold may be called from
// many threads, each object they return used by one.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_PROVIDER_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_PROVIDER_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "chaos_queue.h"
#include "server_faults.h"

namespace docket::tool {

struct ChaosProvider {
  // The run's queue in the file `path`, created when missing; nullptr: keeps none.
  std::unique_ptr<ChaosQueue> (*open_queue)(const std::string& path) = nullptr;

  // The faults of the server of the store `url` (a URL of this provider) for the run
  // `run`; nullptr: its stores have no server to fault. Throws ConfigurationError when
  // the server is not one this machine may fault (not on this machine, say).
  std::unique_ptr<ServerFaults> (*server_faults)(std::string_view url,
                                                 std::string_view run) = nullptr;
  // With server_faults, for the run's log and messages: the server's name
  // ("PostgreSQL": "crashed the PostgreSQL server") and what a crash does to it.
  std::string_view server_name{};
  std::string_view crash_effect{};
};

struct ChaosProviderEntry {
  std::string_view name;  // the provider's registered name (providers/registry.h)
  const ChaosProvider* provider;
};

// Every provider of this build that lends `docket chaos` anything, in
// builtin_providers.cmake's order (chaos_providers.cc).
std::span<const ChaosProviderEntry> chaos_providers();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_PROVIDER_H_
