// The Firestore provider's bench side (bench/bench_provider.h), for `docket bench claim`,
// `docket bench inbox`, `docket bench events`, `docket bench outbox` and `docket bench
// latency`:
// a run on firestore://...?project=P[&prefix=X] puts each side under a collection prefix
// of its own in the same database, X followed by the side's name and '_'
// (docket_bench_docket_, docket_bench_raw_), so both sides' collections have one shape and
// grow in step. The checks read a side's collection with a query, bypassing docket.
#include <algorithm>
#include <map>
#include <memory>
#include <string>

#include "bench_provider.h"
#include "docket/core/error.h"
#include "docket/firestore/transaction.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/keys/stream_key.h"
#include "docket/outbox/outbox_schema.h"
#include "firestore_claim_effect.h"
#include "firestore_raw_claim.h"
#include "firestore_raw_events.h"
#include "firestore_raw_inbox.h"
#include "firestore_raw_outbox.h"
#include "latency_side.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_claim_inbox_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_event_store.h"
#include "providers/firestore/firestore_inbox_document.h"
#include "providers/firestore/firestore_inbox_store.h"
#include "providers/firestore/firestore_outbox_store.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/http/request_count.h"

namespace docket::bench {
namespace {

// The bench's own reads (set-up, checks) are not requests of either side.
kit::http::JsonServiceOptions check_client_options() {
  return {.http = {.request_count = nullptr}};
}

constexpr std::string_view kFirestorePrefixParameter = "prefix=";
constexpr std::string_view kFirestoreChecks = "Firestore bench check";
constexpr std::size_t kFirestoreCheckPage = 300;

// `url` with `side` and '_' appended to its collection prefix (or as its prefix).
std::string firestore_side_url(std::string_view url, std::string_view side) {
  std::string text(url);
  const std::string suffix = std::string(side) + "_";
  const std::size_t question = text.find('?');
  std::size_t at = std::string::npos;
  for (std::size_t from = question; from != std::string::npos && at == std::string::npos;
       from = text.find('&', from + 1)) {
    if (text.compare(from + 1, kFirestorePrefixParameter.size(), kFirestorePrefixParameter) == 0) {
      at = from + 1;
    }
  }
  if (at != std::string::npos) {
    text.insert(std::min(text.find('&', at), text.size()), suffix);
  } else {
    text += "&" + std::string(kFirestorePrefixParameter) + suffix;
  }
  firestore::detail::parse_store_url(text);  // refuses a prefix grown past its limit
  return text;
}

std::string claim_collection(const firestore::detail::Client& client) {
  return client.url().collection(firestore::detail::claim::kCollection);
}

class FirestoreClaimBench final : public ClaimBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t) const override {
    return std::make_unique<firestore::detail::FirestoreClaimInboxStore>(db,
                                                                         SystemClock::instance());
  }

  // Firestore makes a collection with its first document.
  void prepare(const BenchStore&) const override {}

  std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                   std::string_view run_id) const override {
    return std::make_unique<ClaimEffectFirestore>(db, run_id);
  }

  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override {
    const firestore::detail::Client client(firestore::detail::parse_store_url(db),
                                           check_client_options());
    ClaimRows rows;
    firestore::detail::query_pages(
        client,
        {.collection = claim_collection(client),
         .where = firestore::detail::field_filter(firestore::detail::claim::kHandlerType, "EQUAL",
                                                  firestore::detail::string_value(handler_type))},
        kFirestoreCheckPage, [&](std::vector<firestore::detail::Document>& page) {
          for (const firestore::detail::Document& document : page) {
            ++rows.entries;
            const firestore::detail::FieldReader fields(document.fields,
                                                        std::string(kFirestoreChecks));
            rows.processed +=
                fields.string(firestore::detail::claim::kStatus) == "processed" ? 1 : 0;
          }
          return true;
        });
    count_firestore_claim_effects(db, handler_type, rows);
    return rows;
  }

  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override {
    return std::make_unique<RawClaimFirestore>(raw_db, handler_type, owner);
  }
};

// The documents of `collection` whose `field` is `value`, counted page by page.
std::int64_t firestore_count_where(const std::string& db, const std::string& collection,
                                   std::string_view field, std::string_view value) {
  const firestore::detail::Client client(firestore::detail::parse_store_url(db),
                                         check_client_options());
  std::int64_t count = 0;
  firestore::detail::query_pages(
      client,
      {.collection = collection,
       .where =
           firestore::detail::field_filter(field, "EQUAL", firestore::detail::string_value(value))},
      kFirestoreCheckPage, [&](std::vector<firestore::detail::Document>& page) {
        count += static_cast<std::int64_t>(page.size());
        return true;
      });
  return count;
}

class FirestoreInboxBench final : public InboxBench {
 public:
  // One store, its client's connections shared by the threads, as an application has.
  std::unique_ptr<InboxStore> open_docket_store(const std::string& db, std::size_t) const override {
    return firestore::detail::open_inbox_store(db, SystemClock::instance());
  }

  // Firestore makes a collection with its first document.
  void prepare(const BenchStore&) const override {}

  // The effect document through docket::firestore::Transaction, as a user's handler
  // writes it; the collection's name is worked out once per thread and side.
  void insert_effect(HandlerContext& ctx, const std::string& db,
                     std::string_view body) const override {
    thread_local std::string side;
    thread_local std::string collection;
    if (side != db) {
      collection = firestore_effects_collection(db);
      side = db;
    }
    ctx.transaction<firestore::Transaction>().set(collection, ctx.envelope().message_id,
                                                  firestore_effect_fields(ctx.consumer_id(), body));
  }

  InboxRows count_rows(const std::string& db, const std::string& consumer_id) const override {
    const std::string inbox =
        firestore::detail::parse_store_url(db).collection(kInboxMessagesTable);
    return {.dedup_rows = firestore_count_where(db, inbox, firestore::detail::inbox::kHandlerType,
                                                consumer_id),
            .effects = firestore_count_where(db, firestore_effects_collection(db), "consumerId",
                                             consumer_id)};
  }

  std::unique_ptr<InboxSession> raw_session(const std::string& raw_db, std::string_view consumer_id,
                                            DedupCheck dedup) const override {
    return std::make_unique<RawInboxFirestore>(raw_db, consumer_id, dedup);
  }
};

class FirestoreEventsBench final : public EventsBench {
 public:
  // One store, its client's connections shared by the threads. Its one legacy-key probe
  // is sent here (set-up, not measured): a load of a stream no run writes.
  std::unique_ptr<EventStore> open_docket_store(const std::string& db, std::size_t) const override {
    auto store =
        std::make_unique<firestore::detail::FirestoreEventStore>(db, SystemClock::instance());
    store->load(StreamId(TenantId(kBenchStreamTenant), "docket.bench.setup", "none"));
    return store;
  }

  std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const override {
    return std::make_unique<RawEventsFirestore>(raw_db);
  }

  // Every document of the side's events collection, each id parsed by src/keys: the
  // bench tenant's streams of `aggregate_type`, their events, and those whose versions
  // are not exactly 0 .. n-1.
  StoredStreams stored_streams(const std::string& db,
                               std::string_view aggregate_type) const override {
    const firestore::detail::Client client(firestore::detail::parse_store_url(db),
                                           check_client_options());
    struct Versions {
      std::int64_t count = 0;
      std::int64_t highest = -1;
    };
    std::map<std::string, Versions> streams;
    firestore::detail::query_pages(
        client, {.collection = client.url().collection(firestore::detail::event::kCollection)},
        kFirestoreCheckPage, [&](std::vector<firestore::detail::Document>& page) {
          for (const firestore::detail::Document& document : page) {
            const auto terms =
                keys::parse_event_document_id(keys::Provider::kFirestore, document.id);
            if (!terms || terms->stream.tenant != kBenchStreamTenant ||
                terms->stream.aggregate_type != aggregate_type) {
              continue;
            }
            Versions& v = streams[terms->stream.aggregate_id];
            ++v.count;
            v.highest = std::max(v.highest, terms->version);
          }
          return true;
        });
    StoredStreams stored;
    for (const auto& [id, v] : streams) {
      ++stored.streams;
      stored.events += v.count;
      stored.broken_streams += v.highest + 1 == v.count ? 0 : 1;  // no version twice: an id
    }
    return stored;
  }
};

class FirestoreOutboxBench final : public OutboxBench {
 public:
  // One relay: each relay count is another fill and run; pass --relays for more.
  std::vector<std::size_t> default_relays() const override { return {1}; }

  // One store, its client's connections shared by the threads.
  std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                 std::size_t) const override {
    return firestore::detail::open_outbox_store(db, SystemClock::instance());
  }

  std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db, const std::string& source,
                                             const MessageIds& ids, PublishLog& log,
                                             std::size_t batch) const override {
    return std::make_unique<RawOutboxFirestore>(raw_db, source, ids, log, batch);
  }

  OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const override {
    return firestore_outbox_run_rows(db, run_id);
  }

  std::int64_t pending_rows(const std::string& db) const override {
    return firestore_pending_outbox_rows(db);
  }
};

class FirestoreBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override {
    return "firestore://127.0.0.1:8080?project=demo";
  }

  // Whether the emulator keeps its data in memory only cannot be told from the URL:
  // every commit is acknowledged as durable.
  bool in_memory(std::string_view) const override { return false; }

  BenchStore bench_store(std::string_view url, std::string_view docket_side,
                         std::string_view raw_side) const override {
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = firestore_side_url(url, docket_side),
                      .raw_db = firestore_side_url(url, raw_side),
                      .docket_schema = {},
                      .raw_schema = {}};
  }

  // Collections come with their first document.
  void create_sides(const BenchStore&) const override {}

  void drop_sides(const BenchStore& store) const override {
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      const firestore::detail::Client client(firestore::detail::parse_store_url(db),
                                             check_client_options());
      firestore::detail::delete_collection(client, claim_collection(client));
      firestore::detail::delete_collection(client, client.url().collection(kInboxMessagesTable));
      firestore::detail::delete_collection(client, firestore_effects_collection(db));
      firestore::detail::delete_collection(client, firestore_claim_effects_collection(db));
      firestore::detail::delete_collection(
          client, client.url().collection(firestore::detail::event::kCollection));
      // `bench latency`'s and `bench outbox`'s outbox, its sequence counter among its
      // documents.
      firestore::detail::delete_collection(client, client.url().collection(kOutboxTable));
    }
  }

  // Requests sent: docket's stores count into docket_requests(), the raw sides into
  // raw_requests() (src/providers/kit/http/request_count.h).
  std::optional<RoundTrips> round_trips() const override {
    return RoundTrips{.docket = kit::http::docket_requests().load(std::memory_order_relaxed),
                      .raw = kit::http::raw_requests().load(std::memory_order_relaxed)};
  }

  const InboxBench* inbox() const noexcept override { return &inbox_; }
  const ClaimBench* claim() const noexcept override { return &claim_; }
  const EventsBench* events() const noexcept override { return &events_; }
  const OutboxBench* outbox() const noexcept override { return &outbox_; }
  const LatencyBench* latency() const noexcept override { return &latency_; }

 private:
  FirestoreInboxBench inbox_;
  FirestoreOutboxBench outbox_;
  FirestoreClaimBench claim_;
  FirestoreEventsBench events_;
  StoreUrlLatencyBench latency_{firestore::detail::open_outbox_store,
                                firestore::detail::open_inbox_store};
};

}  // namespace
}  // namespace docket::bench

// The entry point bench/bench_providers.cc calls, by the provider's name.
namespace docket::firestore {

const bench::ProviderBench& bench_sides() {
  static const bench::FirestoreBench sides;
  return sides;
}

}  // namespace docket::firestore
