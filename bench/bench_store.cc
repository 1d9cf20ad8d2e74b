#include "bench_store.h"

#include "docket/error.h"
#include "providers/store_url.h"

namespace docket::bench {

BenchStore parse_bench_store(std::string_view url) {
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    // TODO(postgres inbox provider): route to a libpq raw baseline (see
    // docs/benchmarks.md, "PostgreSQL") once open_inbox_store() accepts these URLs.
    throw ConfigurationError("benchmark store URL '" + std::string(url) +
                             "': docket has no PostgreSQL inbox store yet, so there is nothing "
                             "to measure against libpq; run on sqlite:///path/to/file.db");
  }
  // The same URL grammar as open_inbox_store(), so both sides agree on the file.
  const auto parsed = providers::parse_store_url(url, "benchmark store");
  if (parsed.kind == providers::StoreUrl::Kind::kMemory || parsed.path == ":memory:") {
    throw ConfigurationError(
        "benchmark store URL '" + std::string(url) +
        "' is an in-memory store, which has no durable commit to measure; pass a file, "
        "e.g. sqlite:///tmp/bench.db (PostgreSQL joins once docket's PostgreSQL inbox "
        "provider is built)");
  }
  return BenchStore{.url = std::string(url),
                    .provider = BenchProvider::kSqlite,
                    .sqlite_path = parsed.path,
                    .raw_sqlite_path = parsed.path + ".raw"};
}

}  // namespace docket::bench
