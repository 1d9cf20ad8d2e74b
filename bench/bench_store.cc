#include "bench_store.h"

#include "docket/error.h"

namespace docket::bench {
namespace {

constexpr std::string_view kSupported =
    "benchmarks run on sqlite:///path/to/file.db (a file: they measure durable commits). "
    "PostgreSQL (postgresql://...) joins once docket's PostgreSQL inbox provider is built";

[[noreturn]] void refuse(std::string_view url, std::string_view why) {
  throw ConfigurationError("benchmark store URL '" + std::string(url) + "' " + std::string(why) +
                           "; " + std::string(kSupported));
}

}  // namespace

BenchStore parse_bench_store(std::string_view url) {
  if (url == "memory:" || url == "sqlite::memory:") {
    refuse(url, "is an in-memory store, which has no durable commit to measure");
  }
  if (url.starts_with("sqlite://") && url.size() > 9) {
    const std::string path(url.substr(9));
    return BenchStore{.url = std::string(url),
                      .provider = BenchProvider::kSqlite,
                      .sqlite_path = path,
                      .raw_sqlite_path = path + ".raw"};
  }
  refuse(url, "is not one a benchmark can run on");
}

}  // namespace docket::bench
