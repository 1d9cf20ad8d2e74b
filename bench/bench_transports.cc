// The bench parts of this build's transports: those that define
// docket_transport_<name>_bench, in DOCKET_BENCH_TRANSPORTS' order. The list reaches
// this file as the generated header bench_transport_list.h: DOCKET_BENCH_TRANSPORTS(X),
// X(name) each; each part defines docket::<name>::bench_transport().
#include <array>
#include <string>

#include "bench_transport.h"
#include "bench_transport_list.h"
#include "docket/core/error.h"
#include "docket/transports/open_transport.h"
#include "transports/transport_registration.h"

#define DOCKET_DECLARE_BENCH_TRANSPORT(name)      \
  namespace docket::name {                        \
  const bench::TransportBench& bench_transport(); \
  }
DOCKET_BENCH_TRANSPORTS(DOCKET_DECLARE_BENCH_TRANSPORT)
#undef DOCKET_DECLARE_BENCH_TRANSPORT

namespace docket::bench {
namespace {

struct BenchTransportEntry {
  std::string_view name;  // the transport's registered name (its folder)
  const TransportBench* bench;
};

std::span<const BenchTransportEntry> bench_transports() {
#define DOCKET_LIST_BENCH_TRANSPORT(name) \
  BenchTransportEntry{#name, &docket::name::bench_transport()},
  static const std::array entries = std::to_array<BenchTransportEntry>(
      {DOCKET_BENCH_TRANSPORTS(DOCKET_LIST_BENCH_TRANSPORT) BenchTransportEntry{}});
#undef DOCKET_LIST_BENCH_TRANSPORT
  return std::span(entries).first(entries.size() - 1);  // without the empty end
}

}  // namespace

const TransportBench& transport_bench(std::string_view url) {
  const transports::TransportRegistration* transport = transports::find_transport(url);
  if (transport == nullptr) {
    open_transport(url);  // throws ConfigurationError naming the schemes this build opens
    throw ConfigurationError("transport URL '" + printable_transport_url(url) +
                             "' names no transport of this build");
  }
  std::string others;
  for (const BenchTransportEntry& entry : bench_transports()) {
    if (entry.name == transport->name) {
      return *entry.bench;
    }
    others += (others.empty() ? "" : " or ") + std::string(entry.bench->example_url());
  }
  throw ConfigurationError(
      "`docket bench relay` has no raw baseline for the " + std::string(transport->name) +
      " transport ('" + printable_transport_url(url) + "'); run it on " +
      (others.empty() ? std::string("(no transport of this build has one)") : others));
}

}  // namespace docket::bench
