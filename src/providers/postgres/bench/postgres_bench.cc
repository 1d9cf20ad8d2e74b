// The PostgreSQL provider's bench side (bench/bench_provider.h): a run on one server
// puts each side in a schema of its own (docket's and the raw baseline's), selected
// with options=-csearch_path=<schema> on the URL; the checks read both schemas through
// libpq, bypassing docket.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "bench_provider.h"
#include "docket/core/error.h"
#include "docket/postgres/claim_inbox_store.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "docket/stores/printable_store_url.h"
#include "event_workload.h"
#include "postgres_claim_effect.h"
#include "postgres_raw.h"
#include "postgres_raw_claim.h"
#include "postgres_raw_events.h"
#include "postgres_raw_inbox.h"
#include "postgres_raw_outbox.h"
#include "postgres_raw_pg_params.h"
#include "providers/postgres/postgres_round_trips.h"

namespace docket::bench {
namespace {

// The store options for `conninfo` with at least `connections` pooled connections.
postgres::StoreOptions pooled(const std::string& conninfo, std::size_t connections) {
  postgres::StoreOptions options{.conninfo = conninfo};
  options.max_connections = std::max(options.max_connections, connections);
  return options;
}

// The side's schema, and client_min_messages=warning: docket's provider lets libpq
// print NOTICEs on stderr, and every run after the first would print the "already
// exists, skipping" of the idempotent set-up into the report's stream. '=' and ' '
// inside a URL parameter value are percent-encoded: %3D and %20.
std::string with_search_path(std::string_view url, std::string_view schema) {
  const bool has_query = url.find('?') != std::string_view::npos;
  return std::string(url) + (has_query ? "&" : "?") + "options=-csearch_path%3D" +
         std::string(schema) + "%20-cclient_min_messages%3Dwarning";
}

class PostgresInboxBench final : public InboxBench {
 public:
  // A connection per thread, as the raw side has, so that no thread waits for one.
  std::unique_ptr<InboxStore> open_docket_store(const std::string& db,
                                                std::size_t threads) const override {
    return postgres::open_store(pooled(db, threads));
  }

  void prepare(const BenchStore& store) const override {
    postgres::open_store(postgres::StoreOptions{.conninfo = store.raw_db})->migrate();
    for (const std::string& url : {store.docket_db, store.raw_db}) {
      RawPostgres(url).exec_ddl(std::string(kPostgresEffectTableSql));
    }
  }

  void insert_effect(HandlerContext& ctx, const std::string&,
                     std::string_view body) const override {
    // A handler that does not read the insert's result sends it: it travels with the
    // COMMIT (docket/postgres/transaction.h).
    ctx.transaction<postgres::Transaction>().send(
        kPostgresEffectInsertSql,
        {std::string(ctx.consumer_id()), ctx.envelope().message_id, std::string(body)});
  }

  InboxRows count_rows(const std::string& db, const std::string& consumer_id) const override {
    RawPostgres conn(db);
    return {.dedup_rows = conn.count(std::string(kPostgresCountDedupRowsSql), consumer_id),
            .effects = conn.count(std::string(kPostgresCountEffectsSql), consumer_id)};
  }

  std::unique_ptr<InboxSession> raw_session(const std::string& raw_db, std::string_view consumer_id,
                                            DedupCheck /*dedup*/) const override {
    return std::make_unique<RawInboxPostgres>(raw_db, consumer_id);
  }
  std::unique_ptr<CommitProbe> commit_probe(const std::string& raw_db) const override {
    return std::make_unique<CommitProbePostgres>(raw_db);
  }
};

class PostgresOutboxBench final : public OutboxBench {
 public:
  // Relays claim with FOR UPDATE SKIP LOCKED, so several share the work.
  std::vector<std::size_t> default_relays() const override { return {1, 2, 4}; }

  std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                 std::size_t connections) const override {
    return postgres::open_outbox_store(pooled(db, connections));
  }

  std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db, const std::string& source,
                                             const MessageIds& ids, PublishLog& log,
                                             std::size_t batch) const override {
    return std::make_unique<RawOutboxPostgres>(raw_db, source, ids, log, batch);
  }

  OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const override {
    RawPostgres conn(db);
    conn.prepare("run_rows", "SELECT id, status FROM docket_outbox WHERE message_source = $1",
                 std::array<Oid, 1>{kPgText});
    const std::array params{pg_text(run_id)};
    const RawPgResult r = conn.query("run_rows", params);
    OutboxRunRows rows;
    for (int row = 0; row < PQntuples(r.get()); ++row) {
      rows.ids.emplace_back(PQgetvalue(r.get(), row, 0));
      rows.done += std::strtoll(PQgetvalue(r.get(), row, 1), nullptr, 10) == 1 ? 1 : 0;
    }
    return rows;
  }

  std::int64_t pending_rows(const std::string& db) const override {
    return RawPostgres(db).count("SELECT count(*) FROM docket_outbox WHERE status = $1", "0");
  }
};

class PostgresEventsBench final : public EventsBench {
 public:
  std::unique_ptr<EventStore> open_docket_store(const std::string& db,
                                                std::size_t threads) const override {
    return postgres::open_event_store(pooled(db, threads));
  }

  std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const override {
    return std::make_unique<RawEventsPostgres>(raw_db);
  }

  // Per stream: its event count and lowest and highest version; then per aggregate type.
  StoredStreams stored_streams(const std::string& db,
                               std::string_view aggregate_type) const override {
    RawPostgres conn(db);
    conn.prepare("stream_stats",
                 "SELECT count(*), coalesce(sum(n), 0), "
                 "coalesce(sum(CASE WHEN lo = 0 AND hi = n - 1 THEN 0 ELSE 1 END), 0) FROM "
                 "(SELECT count(*) AS n, min(version) AS lo, max(version) AS hi FROM "
                 "docket_events WHERE tenant = $1 AND aggregate_type = $2 GROUP BY "
                 "aggregate_id) AS per_stream",
                 std::array<Oid, 2>{kPgText, kPgText});
    const std::array params{pg_text(kBenchStreamTenant), pg_text(aggregate_type)};
    const RawPgResult r = conn.query("stream_stats", params);
    auto value = [&](int column) {
      return std::strtoll(PQgetvalue(r.get(), 0, column), nullptr, 10);
    };
    return StoredStreams{.streams = value(0), .events = value(1), .broken_streams = value(2)};
  }
};

class PostgresClaimBench final : public ClaimBench {
 public:
  // A connection per thread, as the raw side has, so that no thread waits for one.
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t threads) const override {
    return postgres::open_claim_inbox_store(pooled(db, threads));
  }

  void prepare(const BenchStore& store) const override {
    postgres::open_claim_inbox_store(postgres::StoreOptions{.conninfo = store.raw_db})->migrate();
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      RawPostgres(db).exec_ddl(std::string(kClaimEffectsTableSql));
    }
  }

  std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                   std::string_view run_id) const override {
    return std::make_unique<ClaimEffectPostgres>(db, run_id);
  }

  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override {
    RawPostgres conn(db);
    return {.entries = conn.count(std::string(kPostgresCountClaimEntriesSql), handler_type),
            .processed = conn.count(std::string(kPostgresCountProcessedClaimsSql), handler_type),
            .effects = conn.count(std::string(kCountClaimEffectsSql), handler_type),
            .effect_messages = conn.count(std::string(kCountClaimEffectMessagesSql), handler_type)};
  }

  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override {
    return std::make_unique<RawClaimPostgres>(raw_db, handler_type, owner);
  }
};

class PostgresBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override { return "postgresql://user@host/db"; }

  std::optional<RoundTrips> round_trips() const override {
    return RoundTrips{.docket = postgres::detail::round_trips(), .raw = RawPostgres::round_trips()};
  }

  bool in_memory(std::string_view) const override { return false; }

  BenchStore bench_store(std::string_view url, std::string_view docket_side,
                         std::string_view raw_side) const override {
    if (url.find("options=") != std::string_view::npos) {
      throw ConfigurationError("benchmark store URL '" + printable_store_url(url) +
                               "' sets libpq's `options`; the benchmark sets them itself (a "
                               "search_path per side: " +
                               std::string(docket_side) + " and " + std::string(raw_side) +
                               "), so drop them from the URL");
    }
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = with_search_path(url, docket_side),
                      .raw_db = with_search_path(url, raw_side),
                      .docket_schema = std::string(docket_side),
                      .raw_schema = std::string(raw_side)};
  }

  void create_sides(const BenchStore& store) const override {
    RawPostgres(store.url).exec_ddl("CREATE SCHEMA IF NOT EXISTS " + store.docket_schema +
                                    "; CREATE SCHEMA IF NOT EXISTS " + store.raw_schema);
  }

  void drop_sides(const BenchStore& store) const override {
    RawPostgres(store.url).exec_ddl("DROP SCHEMA IF EXISTS " + store.docket_schema +
                                    " CASCADE; DROP SCHEMA IF EXISTS " + store.raw_schema +
                                    " CASCADE");
  }

  const InboxBench* inbox() const noexcept override { return &inbox_; }
  const OutboxBench* outbox() const noexcept override { return &outbox_; }
  const EventsBench* events() const noexcept override { return &events_; }
  const ClaimBench* claim() const noexcept override { return &claim_; }

 private:
  PostgresInboxBench inbox_;
  PostgresOutboxBench outbox_;
  PostgresEventsBench events_;
  PostgresClaimBench claim_;
};

}  // namespace
}  // namespace docket::bench

namespace docket::postgres {

const bench::ProviderBench& bench_sides() {
  static const bench::PostgresBench sides;
  return sides;
}

}  // namespace docket::postgres
