// The SQLite provider's bench side (bench/bench_provider.h): a run on
// sqlite:///path/run.db puts docket on that file and the raw baseline on
// /path/run.db.raw, a twin file of the same schema; the checks read both files through
// the C API, bypassing docket.
#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "bench_provider.h"
#include "docket/sqlite/claim_inbox_store.h"
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "event_workload.h"
#include "providers/sqlite/sqlite_url.h"
#include "sqlite_claim_effect.h"
#include "sqlite_raw.h"
#include "sqlite_raw_claim.h"
#include "sqlite_raw_events.h"
#include "sqlite_raw_inbox.h"
#include "sqlite_raw_outbox.h"

namespace docket::bench {
namespace {

// The busy timeout docket's SQLite store uses by default, for set-up and checks.

// The store options for `path` with at least `connections` pooled connections.
sqlite::StoreOptions pooled(const std::string& path, std::size_t connections) {
  sqlite::StoreOptions options{.path = path};
  options.max_connections = std::max(options.max_connections, connections);
  return options;
}

class SqliteInboxBench final : public InboxBench {
 public:
  // The default pool: SQLite serialises the writers on its lock however many there are.
  std::unique_ptr<InboxStore> open_docket_store(const std::string& db, std::size_t) const override {
    return sqlite::open_store(sqlite::StoreOptions{.path = db});
  }

  void prepare(const BenchStore& store) const override {
    sqlite::open_store(sqlite::StoreOptions{.path = store.raw_db})->migrate();
    for (const std::string& path : {store.docket_db, store.raw_db}) {
      RawSqlite(path, kRawBusyTimeout).exec_script(std::string(kEffectTableSql));
    }
  }

  // Binds the strings where they are, as a user's handler may.
  void insert_effect(HandlerContext& ctx, const std::string&,
                     std::string_view body) const override {
    ctx.transaction<sqlite::Transaction>().exec(
        kEffectInsertSql, {ctx.consumer_id(), ctx.envelope().message_id, body});
  }

  InboxRows count_rows(const std::string& db, const std::string& consumer_id) const override {
    RawSqlite conn(db, kRawBusyTimeout);
    return {.dedup_rows = conn.count(std::string(kCountDedupRowsSql), consumer_id),
            .effects = conn.count(std::string(kCountEffectsSql), consumer_id)};
  }

  std::unique_ptr<InboxSession> raw_session(const std::string& raw_db, std::string_view consumer_id,
                                            DedupCheck /*dedup*/) const override {
    return std::make_unique<RawInboxSqlite>(raw_db, consumer_id);
  }
};

class SqliteOutboxBench final : public OutboxBench {
 public:
  // One relay: SQLite has one writer at a time.
  std::vector<std::size_t> default_relays() const override { return {1}; }

  std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                 std::size_t connections) const override {
    return sqlite::open_outbox_store(pooled(db, connections));
  }

  std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db, const std::string& source,
                                             const MessageIds& ids, PublishLog& log,
                                             std::size_t batch) const override {
    return std::make_unique<RawOutboxSqlite>(raw_db, source, ids, log, batch);
  }

  OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const override {
    RawSqlite conn(db, kRawBusyTimeout);
    RawStatement select(conn, "SELECT id, status FROM docket_outbox WHERE message_source = ?1");
    select.bind_text(1, run_id);
    OutboxRunRows rows;
    while (select.step()) {
      rows.ids.emplace_back(select.column_bytes(0));
      rows.done += select.column_int64(1) == 1 ? 1 : 0;
    }
    select.reset();
    return rows;
  }

  std::int64_t pending_rows(const std::string& db) const override {
    return RawSqlite(db, kRawBusyTimeout)
        .count("SELECT count(*) FROM docket_outbox WHERE status = ?1", "0");
  }
};

class SqliteEventsBench final : public EventsBench {
 public:
  std::unique_ptr<EventStore> open_docket_store(const std::string& db,
                                                std::size_t threads) const override {
    return sqlite::open_event_store(pooled(db, threads));
  }

  std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const override {
    return std::make_unique<RawEventsSqlite>(raw_db);
  }

  // Per stream: its event count and lowest and highest version; then per aggregate type.
  StoredStreams stored_streams(const std::string& db,
                               std::string_view aggregate_type) const override {
    RawSqlite conn(db, kRawBusyTimeout);
    RawStatement stats(
        conn,
        "SELECT count(*), coalesce(sum(n), 0), "
        "coalesce(sum(CASE WHEN lo = 0 AND hi = n - 1 THEN 0 ELSE 1 END), 0) FROM "
        "(SELECT count(*) AS n, min(version) AS lo, max(version) AS hi FROM docket_events "
        "WHERE tenant = ?1 AND aggregate_type = ?2 GROUP BY aggregate_id) AS per_stream");
    stats.bind_text(1, kBenchStreamTenant);
    stats.bind_text(2, aggregate_type);
    stats.step();
    const StoredStreams stored{.streams = stats.column_int64(0),
                               .events = stats.column_int64(1),
                               .broken_streams = stats.column_int64(2)};
    stats.reset();
    return stored;
  }
};

class SqliteClaimBench final : public ClaimBench {
 public:
  // A connection per thread, as the raw side has, so that no thread waits for one.
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t threads) const override {
    return sqlite::open_claim_inbox_store(pooled(db, threads));
  }

  void prepare(const BenchStore& store) const override {
    sqlite::open_claim_inbox_store(sqlite::StoreOptions{.path = store.raw_db})->migrate();
    for (const std::string& path : {store.docket_db, store.raw_db}) {
      RawSqlite(path, kRawBusyTimeout).exec_script(std::string(kClaimEffectsTableSql));
    }
  }

  std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                   std::string_view run_id) const override {
    return std::make_unique<ClaimEffectSqlite>(db, run_id);
  }

  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override {
    RawSqlite conn(db, kRawBusyTimeout);
    return {.entries = conn.count(std::string(kCountClaimEntriesSql), handler_type),
            .processed = conn.count(std::string(kCountProcessedClaimsSql), handler_type),
            .effects = conn.count(std::string(kCountClaimEffectsSql), handler_type),
            .effect_messages = conn.count(std::string(kCountClaimEffectMessagesSql), handler_type)};
  }

  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override {
    return std::make_unique<RawClaimSqlite>(raw_db, handler_type, owner);
  }
};

class SqliteBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override { return "sqlite:///tmp/bench.db"; }

  bool in_memory(std::string_view url) const override {
    return sqlite::detail::path_of_url(url) == ":memory:";
  }

  // One file per side; the side names are for servers with namespaces.
  BenchStore bench_store(std::string_view url, std::string_view, std::string_view) const override {
    const std::string path = sqlite::detail::path_of_url(url);
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = path,
                      .raw_db = path + ".raw",
                      .docket_schema = {},
                      .raw_schema = {}};
  }

  void create_sides(const BenchStore&) const override {}
  void drop_sides(const BenchStore&) const override {}

  const InboxBench* inbox() const noexcept override { return &inbox_; }
  const OutboxBench* outbox() const noexcept override { return &outbox_; }
  const EventsBench* events() const noexcept override { return &events_; }
  const ClaimBench* claim() const noexcept override { return &claim_; }

 private:
  SqliteInboxBench inbox_;
  SqliteOutboxBench outbox_;
  SqliteEventsBench events_;
  SqliteClaimBench claim_;
};

}  // namespace
}  // namespace docket::bench

namespace docket::sqlite {

const bench::ProviderBench& bench_sides() {
  static const bench::SqliteBench sides;
  return sides;
}

}  // namespace docket::sqlite
