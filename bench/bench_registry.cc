#include "bench_registry.h"

#include <string>

#include "docket/core/error.h"
#include "providers/registry.h"

namespace docket::bench {
namespace {

const BenchProviderEntry* entry_named(std::string_view name) {
  for (const BenchProviderEntry& entry : bench_providers()) {
    if (entry.name == name) {
      return &entry;
    }
  }
  return nullptr;
}

std::string_view name_of(const ProviderBench* bench) {
  for (const BenchProviderEntry& entry : bench_providers()) {
    if (entry.bench == bench) {
      return entry.name;
    }
  }
  return "unknown";
}

// The example URLs of the providers whose bench side `has` the benchmark, joined.
template <class Has>
std::string examples(const Has& has) {
  std::string text;
  for (const BenchProviderEntry& entry : bench_providers()) {
    if (has(*entry.bench)) {
      text += (text.empty() ? "" : " or ") + std::string(entry.bench->example_url());
    }
  }
  return text.empty() ? std::string("(none in this build)") : text;
}

[[noreturn]] void refuse_in_memory(std::string_view url) {
  throw ConfigurationError("benchmark store URL '" + std::string(url) +
                           "' is an in-memory store, which has no durable commit to measure; "
                           "pass a store that keeps its data, e.g. " +
                           examples([](const ProviderBench&) { return true; }));
}

template <class Side>
const Side& side_of(const BenchStore& store, const Side* (ProviderBench::*side)() const noexcept,
                    std::string_view benchmark) {
  if (const Side* found = (store.provider->*side)()) {
    return *found;
  }
  throw ConfigurationError(
      "`docket bench " + std::string(benchmark) + "` has no raw baseline on the " +
      std::string(name_of(store.provider)) + " provider ('" +
      providers::Registry::builtin().printable(store.url) + "'); run it on " +
      examples([&](const ProviderBench& bench) { return (bench.*side)() != nullptr; }));
}

}  // namespace

BenchStore parse_bench_store(std::string_view url) {
  return parse_bench_store(url, kDocketSideName, kRawSideName);
}

BenchStore parse_bench_store(std::string_view url, std::string_view docket_side,
                             std::string_view raw_side) {
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "benchmark store");
  if (provider.process_local) {
    refuse_in_memory(url);
  }
  const BenchProviderEntry* entry = entry_named(provider.name);
  if (entry == nullptr) {
    throw ConfigurationError(
        "benchmark store URL '" + providers::Registry::builtin().printable(url) + "' is on the " +
        std::string(provider.name) + " provider, which has no benchmark raw baseline; pass e.g. " +
        examples([](const ProviderBench&) { return true; }));
  }
  if (entry->bench->in_memory(url)) {
    refuse_in_memory(url);
  }
  BenchStore store = entry->bench->bench_store(url, docket_side, raw_side);
  store.provider = entry->bench;
  return store;
}

const InboxBench& inbox_bench(const BenchStore& store, std::string_view benchmark) {
  return side_of(store, &ProviderBench::inbox, benchmark);
}

const OutboxBench& outbox_bench(const BenchStore& store, std::string_view benchmark) {
  return side_of(store, &ProviderBench::outbox, benchmark);
}

const EventsBench& events_bench(const BenchStore& store) {
  return side_of(store, &ProviderBench::events, "events");
}

const ClaimBench& claim_bench(const BenchStore& store) {
  return side_of(store, &ProviderBench::claim, "claim");
}

}  // namespace docket::bench
