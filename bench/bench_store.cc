#include "bench_store.h"

#include "docket/error.h"
#include "docket/uuid.h"
#include "providers/store_url.h"
#include "raw_postgres.h"

namespace docket::bench {
namespace {

// The side's schema, and client_min_messages=warning: docket's provider lets libpq
// print NOTICEs on stderr, and every run after the first would print the "already
// exists, skipping" of the idempotent set-up into the report's stream. '=' and ' '
// inside a URL parameter value are percent-encoded: %3D and %20.
std::string with_search_path(std::string_view url, std::string_view schema) {
  const bool has_query = url.find('?') != std::string_view::npos;
  return std::string(url) + (has_query ? "&" : "?") + "options=-csearch_path%3D" +
         std::string(schema) + "%20-cclient_min_messages%3Dwarning";
}

BenchStore postgres_bench_store(std::string_view url, std::string_view docket_schema,
                                std::string_view raw_schema) {
  if (url.find("options=") != std::string_view::npos) {
    throw ConfigurationError("benchmark store URL '" + std::string(url) +
                             "' sets libpq's `options`; the benchmark sets them itself (a "
                             "search_path per side: " +
                             std::string(docket_schema) + " and " + std::string(raw_schema) +
                             "), so drop them from the URL");
  }
  return BenchStore{.url = std::string(url),
                    .provider = BenchProvider::kPostgres,
                    .docket_url = with_search_path(url, docket_schema),
                    .docket_db = with_search_path(url, docket_schema),
                    .raw_db = with_search_path(url, raw_schema),
                    .docket_schema = std::string(docket_schema),
                    .raw_schema = std::string(raw_schema)};
}

}  // namespace

BenchStore parse_bench_store(std::string_view url) {
  return parse_bench_store(url, kPostgresDocketSchema, kPostgresRawSchema);
}

BenchStore parse_bench_store(std::string_view url, std::string_view docket_schema,
                             std::string_view raw_schema) {
  if (url.starts_with("postgresql://") || url.starts_with("postgres://")) {
    return postgres_bench_store(url, docket_schema, raw_schema);
  }
  // The same URL grammar as open_inbox_store(), so both sides agree on the file.
  const auto parsed = providers::parse_store_url(url, "benchmark store");
  if (parsed.kind == providers::StoreUrl::Kind::kMemory || parsed.path == ":memory:") {
    throw ConfigurationError(
        "benchmark store URL '" + std::string(url) +
        "' is an in-memory store, which has no durable commit to measure; pass a file, "
        "e.g. sqlite:///tmp/bench.db, or a PostgreSQL server, postgresql://user@host/db");
  }
  return BenchStore{.url = std::string(url),
                    .provider = BenchProvider::kSqlite,
                    .docket_url = std::string(url),
                    .docket_db = parsed.path,
                    .raw_db = parsed.path + ".raw",
                    .docket_schema = {},
                    .raw_schema = {}};
}

std::string new_run_id() {
  return "docket-bench-" + Uuid::v4().to_string().substr(0, 8);
}

void create_bench_schemas(const BenchStore& store) {
  if (store.provider == BenchProvider::kPostgres) {
    RawPostgres(store.url).exec_script("CREATE SCHEMA IF NOT EXISTS " + store.docket_schema +
                                       "; CREATE SCHEMA IF NOT EXISTS " + store.raw_schema);
  }
}

}  // namespace docket::bench
