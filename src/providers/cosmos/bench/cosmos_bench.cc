// The Cosmos DB provider's bench side (bench/bench_provider.h), for `docket bench inbox`,
// `docket bench events`, `docket bench claim`, `docket bench outbox` and `docket bench
// latency`: a run on
// cosmos://...?database=D&... puts each side in a database of its own on the same
// account, D followed by '_' and the side's name (D_docket_bench_docket,
// D_docket_bench_raw), so both sides' containers have one shape and grow in step, and a
// run's end drops both databases. The checks read a side's containers with queries
// across partitions through a client that counts no requests, bypassing docket.
//
// Round trips are the HTTP requests each side sent (kit::http::docket_requests(),
// raw_requests()); request units are what the service charged them (x-ms-request-charge:
// docket's stores' clients add it to cosmos::detail::docket_milli_request_units(), the raw
// sides' to cosmos_raw_charges.h's total).
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "bench_provider.h"
#include "cosmos_claim_bench.h"
#include "cosmos_raw_charges.h"
#include "cosmos_raw_events.h"
#include "cosmos_raw_inbox.h"
#include "cosmos_raw_outbox.h"
#include "docket/core/error.h"
#include "docket/cosmos/transaction.h"
#include "docket/inbox/inbox_schema.h"
#include "latency_side.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_event_store.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_store.h"
#include "providers/kit/http/request_count.h"

namespace docket::bench {
namespace {

constexpr std::string_view kDatabaseParameter = "database=";

// `url` with '_' and `side` appended to its database's name; refused, naming why, where
// the name would grow past Cosmos DB's id rules.
std::string cosmos_side_url(std::string_view url, std::string_view side) {
  std::string text(url);
  const std::size_t at = text.find(kDatabaseParameter);
  if (at == std::string::npos || (at > 0 && text[at - 1] != '?' && text[at - 1] != '&')) {
    throw ConfigurationError("docket bench on Cosmos DB needs database= in the store URL (" +
                             cosmos::detail::printable_url(url) + "); write " +
                             std::string(cosmos::detail::kUrlForms));
  }
  text.insert(std::min(text.find('&', at), text.size()), "_" + std::string(side));
  cosmos::detail::parse_store_url(text);  // refuses a database name grown past the limits
  return text;
}

void drop_database(const std::string& url) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url),
                                      cosmos_check_client_options());
  const std::string link = "dbs/" + client.url().database;
  const cosmos::detail::Request request{.what = "drop of a bench side's database",
                                        .method = "DELETE",
                                        .resource_type = "dbs",
                                        .resource_link = link,
                                        .path = "/" + link};
  const cosmos::detail::Response response = client.send(request);
  if (response.status != 204 && response.status != 200 && response.status != 404) {
    client.fail(request, response);
  }
}

class CosmosInboxBench final : public InboxBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<InboxStore> open_docket_store(const std::string& db, std::size_t) const override {
    return cosmos::detail::open_inbox_store(db, SystemClock::instance());
  }

  // The effects are items of the inbox container itself (the handler's writes share the
  // dedup item's batch), so making that container is all.
  void prepare(const BenchStore& store) const override {
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      cosmos::detail::open_inbox_store(db, SystemClock::instance())->migrate();
    }
  }

  // The effect item through docket::cosmos::Transaction, as a user's handler writes it.
  void insert_effect(HandlerContext& ctx, const std::string&,
                     std::string_view body) const override {
    ctx.transaction<cosmos::Transaction>().create(
        cosmos_effect_id(ctx.envelope().message_id),
        cosmos_effect_item(ctx.consumer_id(), ctx.envelope().message_id, body));
  }

  InboxRows count_rows(const std::string& db, const std::string& consumer_id) const override {
    const cosmos::detail::Client client(cosmos::detail::parse_store_url(db),
                                        cosmos_check_client_options());
    const auto count = [&](std::string_view table) {
      return static_cast<std::int64_t>(cosmos::detail::query_count(
          client, {.container = client.url().container(cosmos::detail::kInboxContainerBase),
                   .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.docketTable = @table AND "
                          "c.consumerId = @consumer",
                   .parameters = {{{"name", "@table"}, {"value", table}},
                                  {{"name", "@consumer"}, {"value", consumer_id}}}}));
    };
    return {.dedup_rows = count(kInboxMessagesTable), .effects = count(kCosmosEffectTable)};
  }

  std::unique_ptr<InboxSession> raw_session(const std::string& raw_db, std::string_view consumer_id,
                                            DedupCheck dedup) const override {
    return std::make_unique<RawInboxCosmos>(raw_db, consumer_id, dedup);
  }
};

class CosmosEventsBench final : public EventsBench {
 public:
  // One store, its client's connections shared by the threads. Its container is made,
  // and its one legacy-key probe sent, here (set-up, not measured): a load of a stream
  // no run writes.
  std::unique_ptr<EventStore> open_docket_store(const std::string& db, std::size_t) const override {
    auto store = cosmos::detail::open_event_store(db, SystemClock::instance());
    store->load(StreamId(TenantId(kBenchStreamTenant), "docket.bench.setup", "none"));
    return store;
  }

  std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const override {
    return std::make_unique<RawEventsCosmos>(raw_db);
  }

  // One query across the partitions of the side's events container: the bench tenant's
  // streams of `aggregate_type`, their events, and those whose versions are not exactly
  // 0 .. n-1.
  StoredStreams stored_streams(const std::string& db,
                               std::string_view aggregate_type) const override {
    const cosmos::detail::Client client(cosmos::detail::parse_store_url(db),
                                        cosmos_check_client_options());
    const std::vector<nlohmann::json> items = cosmos::detail::query_items(
        client,
        {.container = client.url().container(cosmos::detail::event::kContainer),
         .sql = "SELECT c.streamId, c.version FROM c WHERE c.tenant = @tenant AND "
                "c.aggregateType = @type",
         .parameters = {{{"name", "@tenant"}, {"value", kBenchStreamTenant}},
                        {{"name", "@type"}, {"value", aggregate_type}}}},
        std::numeric_limits<std::size_t>::max());
    struct Versions {
      std::int64_t count = 0;
      std::int64_t highest = -1;
    };
    std::map<std::string, Versions> streams;
    for (const nlohmann::json& item : items) {
      Versions& v = streams[item.at("streamId").get<std::string>()];
      ++v.count;
      v.highest = std::max(v.highest, item.at("version").get<std::int64_t>());
    }
    StoredStreams stored;
    for (const auto& [key, v] : streams) {
      ++stored.streams;
      stored.events += v.count;
      stored.broken_streams += v.highest + 1 == v.count ? 0 : 1;  // no version twice: an id
    }
    return stored;
  }
};

class CosmosOutboxBench final : public OutboxBench {
 public:
  // One relay: every pending message is in one partition of the test server, and each
  // relay count is another fill and run on this 2-core machine; pass --relays for more.
  std::vector<std::size_t> default_relays() const override { return {1}; }

  // One store, its client's connections shared by the threads.
  std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                 std::size_t) const override {
    return cosmos::detail::open_outbox_store(db, SystemClock::instance());
  }

  std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db, const std::string& source,
                                             const MessageIds& ids, PublishLog& log,
                                             std::size_t batch) const override {
    return std::make_unique<RawOutboxCosmos>(raw_db, source, ids, log, batch);
  }

  OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const override {
    return cosmos_outbox_run_rows(db, run_id);
  }

  std::int64_t pending_rows(const std::string& db) const override {
    return cosmos_pending_outbox_rows(db);
  }
};

class CosmosBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override {
    return "cosmos://127.0.0.1:8081?database=bench&key=KEY&tls=off";
  }

  // Whether an account keeps its items in memory only (a test server) cannot be told
  // from the URL: every write is acknowledged as durable.
  bool in_memory(std::string_view) const override { return false; }

  BenchStore bench_store(std::string_view url, std::string_view docket_side,
                         std::string_view raw_side) const override {
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = cosmos_side_url(url, docket_side),
                      .raw_db = cosmos_side_url(url, raw_side),
                      .docket_schema = {},
                      .raw_schema = {}};
  }

  // The stores make their database and containers when missing.
  void create_sides(const BenchStore&) const override {}

  // Each side's database, with every container any benchmark made in it.
  void drop_sides(const BenchStore& store) const override {
    drop_database(store.docket_db);
    drop_database(store.raw_db);
  }

  // Requests sent: docket's stores count into docket_requests(), the raw sides into
  // raw_requests() (src/providers/kit/http/request_count.h).
  std::optional<RoundTrips> round_trips() const override {
    return RoundTrips{.docket = kit::http::docket_requests().load(std::memory_order_relaxed),
                      .raw = kit::http::raw_requests().load(std::memory_order_relaxed)};
  }

  // What the service charged each side: docket's stores' clients count into
  // docket_milli_request_units() (their default), the raw sides' into
  // raw_request_units(); the checks' clients count nowhere.
  RequestUnits request_units() const override {
    return {.docket = static_cast<double>(cosmos::detail::docket_milli_request_units().load(
                          std::memory_order_relaxed)) /
                      1000.0,
            .raw = raw_request_units()};
  }

  const InboxBench* inbox() const noexcept override { return &inbox_; }
  const EventsBench* events() const noexcept override { return &events_; }
  const ClaimBench* claim() const noexcept override { return &claim_; }
  const OutboxBench* outbox() const noexcept override { return &outbox_; }
  const LatencyBench* latency() const noexcept override { return &latency_; }

 private:
  CosmosInboxBench inbox_;
  CosmosOutboxBench outbox_;
  CosmosEventsBench events_;
  CosmosClaimBench claim_;
  StoreUrlLatencyBench latency_{cosmos::detail::open_outbox_store,
                                cosmos::detail::open_inbox_store};
};

}  // namespace
}  // namespace docket::bench

// The entry point bench/bench_providers.cc calls, by the provider's name.
namespace docket::cosmos {

const bench::ProviderBench& bench_sides() {
  static const bench::CosmosBench sides;
  return sides;
}

}  // namespace docket::cosmos
