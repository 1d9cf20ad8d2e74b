// The DynamoDB provider's bench side (bench/bench_provider.h), for `docket bench claim`,
// `docket bench events`, `docket bench inbox`, `docket bench outbox` and `docket bench
// latency`:
// a run on dynamodb://...?region=R[&table_prefix=P] puts each side under a table
// prefix of its own on the same server, P followed by the side's name and '_'
// (docket_bench_docket_, docket_bench_raw_), so both sides' tables have one shape and
// grow in step. The checks read a side's table with a Scan, bypassing docket.
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "bench_provider.h"
#include "docket/core/error.h"
#include "docket/dynamodb/transaction.h"
#include "docket/keys/stream_key.h"
#include "dynamodb_claim_effect.h"
#include "dynamodb_raw_claim.h"
#include "dynamodb_raw_events.h"
#include "dynamodb_raw_inbox.h"
#include "dynamodb_raw_outbox.h"
#include "latency_side.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_event_store.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_inbox_store.h"
#include "providers/dynamodb/dynamodb_inbox_table.h"
#include "providers/dynamodb/dynamodb_outbox_store.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/dynamodb_table_listing.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/key_bridge.h"

namespace docket::bench {
namespace {

// The bench's own reads (set-up, checks) are not requests of either side.
kit::http::JsonServiceOptions check_client_options() {
  return {.http = {.request_count = nullptr}};
}

constexpr std::string_view kPrefixParameter = "table_prefix=";
constexpr std::string_view kChecks = "DynamoDB bench check";
constexpr std::string_view kOfHandler = "#handler_type = :handler_type";
constexpr std::string_view kStatusOnly = "#status";

// `url` with `side` and '_' appended to its table prefix (or as its prefix).
std::string side_url(std::string_view url, std::string_view side) {
  std::string text(url);
  const std::string suffix = std::string(side) + "_";
  if (const std::size_t at = text.find(kPrefixParameter); at != std::string::npos) {
    text.insert(std::min(text.find('&', at), text.size()), suffix);
  } else {
    text += "&" + std::string(kPrefixParameter) + suffix;
  }
  dynamodb::detail::parse_store_url(text);  // refuses a prefix grown past DynamoDB's limits
  return text;
}

std::string claim_table(const std::string& url) {
  return dynamodb::detail::claim::claim_table_schema(dynamodb::detail::parse_store_url(url)).name;
}

class DynamoDbClaimBench final : public ClaimBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t) const override {
    return std::make_unique<dynamodb::detail::DynamoDbClaimInboxStore>(db, SystemClock::instance());
  }

  void prepare(const BenchStore& store) const override {
    dynamodb::detail::DynamoDbClaimInboxStore(store.raw_db, SystemClock::instance()).migrate();
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      ensure_dynamodb_claim_effects_table(db);
    }
  }

  std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                   std::string_view run_id) const override {
    return std::make_unique<ClaimEffectDynamoDb>(db, run_id);
  }

  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override {
    const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(db),
                                          check_client_options());
    dynamodb::detail::Pager pager = dynamodb::detail::Pager::scan(
        client,
        {{"TableName", claim_table(db)},
         {"ConsistentRead", true},
         {"FilterExpression", kOfHandler},
         {"ProjectionExpression", kStatusOnly},
         {"ExpressionAttributeNames", dynamodb::detail::attribute_names({kOfHandler, kStatusOnly})},
         {"ExpressionAttributeValues",
          {{":handler_type", dynamodb::detail::string_value(handler_type)}}}});
    ClaimRows rows;
    while (const auto page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        ++rows.entries;
        const dynamodb::detail::ItemReader read(item, kChecks);
        rows.processed += read.string(dynamodb::detail::claim::kStatus) == "processed" ? 1 : 0;
      }
    }
    count_dynamodb_claim_effects(db, handler_type, rows);
    return rows;
  }

  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override {
    return std::make_unique<RawClaimDynamoDb>(raw_db, handler_type, owner);
  }
};

// The items of `table` in the side `db` whose consumer_id is `consumer_id`: a consistent
// Scan counting them.
std::int64_t count_of_consumer(const std::string& db, const std::string& table,
                               const std::string& consumer_id) {
  constexpr std::string_view kOfConsumer = "#consumer_id = :consumer_id";
  const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(db),
                                        check_client_options());
  nlohmann::json request = {
      {"TableName", table},
      {"ConsistentRead", true},
      {"Select", "COUNT"},
      {"FilterExpression", kOfConsumer},
      {"ExpressionAttributeNames", dynamodb::detail::attribute_names({kOfConsumer})},
      {"ExpressionAttributeValues",
       {{":consumer_id", dynamodb::detail::string_value(consumer_id)}}}};
  std::int64_t count = 0;
  for (;;) {
    const dynamodb::detail::Response page = client.call(
        {.operation = "Scan", .table = table, .replay = dynamodb::detail::Replay::kSafe}, request);
    count += page.body().value("Count", std::int64_t{0});
    const auto last = page.body().find("LastEvaluatedKey");
    if (last == page.body().end()) {
      return count;
    }
    request["ExclusiveStartKey"] = *last;
  }
}

class DynamoDbInboxBench final : public InboxBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<InboxStore> open_docket_store(const std::string& db, std::size_t) const override {
    return dynamodb::detail::open_inbox_store(db, SystemClock::instance());
  }

  void prepare(const BenchStore& store) const override {
    dynamodb::detail::open_inbox_store(store.raw_db, SystemClock::instance())->migrate();
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      dynamodb::detail::ensure_table(
          dynamodb::detail::Client(dynamodb::detail::parse_store_url(db), check_client_options()),
          effects_table_schema(db));
    }
  }

  // The effect item through docket::dynamodb::Transaction, as a user's handler writes
  // it; the table's name is worked out once per thread and side.
  void insert_effect(HandlerContext& ctx, const std::string& db,
                     std::string_view body) const override {
    thread_local std::string side;
    thread_local std::string table;
    if (side != db) {
      table = effects_table_schema(db).name;
      side = db;
    }
    ctx.transaction<dynamodb::Transaction>().put(
        table, effect_item(ctx.consumer_id(), ctx.envelope().message_id, body));
  }

  InboxRows count_rows(const std::string& db, const std::string& consumer_id) const override {
    const std::string inbox =
        dynamodb::detail::inbox::inbox_table_schema(dynamodb::detail::parse_store_url(db)).name;
    return {.dedup_rows = count_of_consumer(db, inbox, consumer_id),
            .effects = count_of_consumer(db, effects_table_schema(db).name, consumer_id)};
  }

  std::unique_ptr<InboxSession> raw_session(const std::string& raw_db, std::string_view consumer_id,
                                            DedupCheck dedup) const override {
    return std::make_unique<RawInboxDynamoDb>(raw_db, consumer_id, dedup);
  }
};

class DynamoDbEventsBench final : public EventsBench {
 public:
  // One store, its client's connections shared by the threads. Its table is made, and
  // its one legacy-key probe sent, here (set-up, not measured): a load of a stream no
  // run writes.
  std::unique_ptr<EventStore> open_docket_store(const std::string& db, std::size_t) const override {
    auto store =
        std::make_unique<dynamodb::detail::DynamoDbEventStore>(db, SystemClock::instance());
    store->load(StreamId(TenantId(kBenchStreamTenant), "docket.bench.setup", "none"));
    return store;
  }

  std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const override {
    return std::make_unique<RawEventsDynamoDb>(raw_db);
  }

  // A Scan of the side's events table, each stream key parsed by src/keys: the bench
  // tenant's streams of `aggregate_type`, their events, and those whose versions are not
  // exactly 0 .. n-1.
  StoredStreams stored_streams(const std::string& db,
                               std::string_view aggregate_type) const override {
    const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(db),
                                          check_client_options());
    constexpr std::string_view kKeyOnly = "#stream, #version";
    dynamodb::detail::Pager pager = dynamodb::detail::Pager::scan(
        client, {{"TableName", client.url().table_name(dynamodb::detail::kEventsTableBase)},
                 {"ConsistentRead", true},
                 {"ProjectionExpression", kKeyOnly},
                 {"ExpressionAttributeNames",
                  {{"#stream", dynamodb::detail::kStreamAttribute},
                   {"#version", dynamodb::detail::kVersionAttribute}}}});
    struct Versions {
      std::int64_t count = 0;
      std::int64_t highest = -1;
    };
    std::map<std::string, Versions> streams;
    while (const auto page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        const dynamodb::detail::ItemReader read(item, kChecks);
        const std::string key(read.string(dynamodb::detail::kStreamAttribute));
        const auto terms = keys::parse_stream_key(keys::Provider::kDynamoDb, key);
        if (!terms || terms->tenant != kBenchStreamTenant ||
            terms->aggregate_type != aggregate_type) {
          continue;
        }
        Versions& v = streams[key];
        ++v.count;
        v.highest = std::max(v.highest, read.number(dynamodb::detail::kVersionAttribute));
      }
    }
    StoredStreams stored;
    for (const auto& [key, v] : streams) {
      ++stored.streams;
      stored.events += v.count;
      stored.broken_streams += v.highest + 1 == v.count ? 0 : 1;  // no version twice: a key
    }
    return stored;
  }
};

class DynamoDbOutboxBench final : public OutboxBench {
 public:
  // One relay: each relay count is another fill and run; pass --relays for more.
  std::vector<std::size_t> default_relays() const override { return {1}; }

  // One store, its client's connections shared by the threads.
  std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                 std::size_t) const override {
    return dynamodb::detail::open_outbox_store(db, SystemClock::instance());
  }

  std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db, const std::string& source,
                                             const MessageIds& ids, PublishLog& log,
                                             std::size_t batch) const override {
    return std::make_unique<RawOutboxDynamoDb>(raw_db, source, ids, log, batch);
  }

  OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const override {
    return dynamodb_outbox_run_rows(db, run_id);
  }

  std::int64_t pending_rows(const std::string& db) const override {
    return dynamodb_pending_outbox_rows(db);
  }
};

class DynamoDbBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override {
    return "dynamodb://127.0.0.1:8000?region=us-east-1";
  }

  // Whether a server keeps its tables in memory (DynamoDB Local -inMemory) cannot be
  // told from the URL: every write is acknowledged as durable.
  bool in_memory(std::string_view) const override { return false; }

  BenchStore bench_store(std::string_view url, std::string_view docket_side,
                         std::string_view raw_side) const override {
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = side_url(url, docket_side),
                      .raw_db = side_url(url, raw_side),
                      .docket_schema = {},
                      .raw_schema = {}};
  }

  // The stores make their tables when missing.
  void create_sides(const BenchStore&) const override {}

  // Every table under each side's prefix, whichever benchmarks made them.
  void drop_sides(const BenchStore& store) const override {
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      const dynamodb::detail::Client client(dynamodb::detail::parse_store_url(db),
                                            check_client_options());
      dynamodb::detail::delete_tables_with_prefix(client, client.url().table_prefix);
    }
  }

  const ClaimBench* claim() const noexcept override { return &claim_; }
  const EventsBench* events() const noexcept override { return &events_; }
  // Requests sent: docket's stores count into docket_requests(), the raw sides into
  // raw_requests() (src/providers/kit/http/request_count.h).
  std::optional<RoundTrips> round_trips() const override {
    return RoundTrips{.docket = kit::http::docket_requests().load(std::memory_order_relaxed),
                      .raw = kit::http::raw_requests().load(std::memory_order_relaxed)};
  }

  const InboxBench* inbox() const noexcept override { return &inbox_; }
  const OutboxBench* outbox() const noexcept override { return &outbox_; }
  const LatencyBench* latency() const noexcept override { return &latency_; }

 private:
  DynamoDbClaimBench claim_;
  DynamoDbEventsBench events_;
  DynamoDbInboxBench inbox_;
  DynamoDbOutboxBench outbox_;
  StoreUrlLatencyBench latency_{dynamodb::detail::open_outbox_store,
                                dynamodb::detail::open_inbox_store};
};

}  // namespace
}  // namespace docket::bench

// The entry point bench/bench_providers.cc calls, by the provider's name.
namespace docket::dynamodb {

const bench::ProviderBench& bench_sides() {
  static const bench::DynamoDbBench sides;
  return sides;
}

}  // namespace docket::dynamodb
