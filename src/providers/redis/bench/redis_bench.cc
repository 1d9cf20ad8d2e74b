// The Redis provider's bench side (bench/bench_provider.h), for `docket bench inbox`,
// `claim`, `events` and `outbox`: a run on redis://...[?prefix=P] puts each side under
// a key prefix of its own on the same server and database, P followed by the side's
// name and '_' (docket:docket_bench_docket_, docket:docket_bench_raw_ without a P), so
// that both sides' keys have one shape and grow in step; a run's end deletes every key
// under both. docket's side runs docket's stores; the raw side sends its own scripts
// through hiredis (redis_raw*.h). The checks read a side's keys with SCAN, bypassing
// docket. Round trips: docket's provider counts its own (redis_round_trips.h), the raw
// connections theirs (RawRedis::round_trips()).
#include <algorithm>
#include <memory>
#include <string>

#include "bench_provider.h"
#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/redis/transaction.h"
#include "providers/redis/redis_claim_inbox_store.h"
#include "providers/redis/redis_event_store.h"
#include "providers/redis/redis_inbox_store.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_outbox_store.h"
#include "providers/redis/redis_round_trips.h"
#include "providers/redis/redis_url.h"
#include "redis_claim_effect.h"
#include "redis_raw.h"
#include "redis_raw_claim.h"
#include "redis_raw_events.h"
#include "redis_raw_inbox.h"
#include "redis_raw_outbox.h"

namespace docket::bench {
namespace {

constexpr std::string_view kPrefixParameter = "prefix=";
constexpr std::string_view kPoolParameter = "pool_size=";
constexpr std::size_t kMaxPool = 1024;  // the URL's range of pool_size

// Where the query parameter `name` ("prefix=") starts in `url`, or npos.
std::size_t parameter_at(std::string_view url, std::string_view name) {
  for (const char separator : {'?', '&'}) {
    const std::string needle = separator + std::string(name);
    if (const std::size_t at = url.find(needle); at != std::string_view::npos) {
      return at + 1;
    }
  }
  return std::string_view::npos;
}

std::string with_parameter(std::string_view url, std::string_view parameter) {
  const bool has_query = url.find('?') != std::string_view::npos;
  return std::string(url) + (has_query ? "&" : "?") + std::string(parameter);
}

// `url` with `side` and '_' appended to its prefix (or to docket's default prefix).
std::string side_url(std::string_view url, std::string_view side) {
  std::string text(url);
  const std::string suffix = std::string(side) + "_";
  if (const std::size_t at = parameter_at(text, kPrefixParameter); at != std::string::npos) {
    text.insert(std::min(text.find('&', at), text.size()), suffix);
  } else {
    text = with_parameter(
        text, std::string(kPrefixParameter) + redis::detail::RedisUrl{}.prefix + suffix);
  }
  redis::detail::parse_url(text);  // refuses a prefix grown past the URL's limits
  return text;
}

// `db` with a pool of at least `connections` (up to the URL's limit), unless the URL
// sets its own pool_size.
std::string pooled(const std::string& db, std::size_t connections) {
  if (parameter_at(db, kPoolParameter) != std::string::npos) {
    return db;
  }
  const std::size_t size = std::clamp(connections, redis::detail::RedisUrl{}.pool_size, kMaxPool);
  return with_parameter(db, std::string(kPoolParameter) + std::to_string(size));
}

// The keys matching `pattern` in the side `url`, counted with SCAN.
std::int64_t count_keys(const std::string& url, const std::string& pattern) {
  RawRedis db(url, RawRedis::Counting::kUncounted);
  std::int64_t count = 0;
  db.scan(pattern,
          [&](const redisReply& keys) { count += static_cast<std::int64_t>(keys.elements); });
  return count;
}

class RedisInboxBench final : public InboxBench {
 public:
  std::unique_ptr<InboxStore> open_docket_store(const std::string& db,
                                                std::size_t threads) const override {
    return redis::detail::open_inbox_store(pooled(db, threads), SystemClock::instance());
  }

  // Redis has no schema: the stores' keys are made by their first writes.
  void prepare(const BenchStore&) const override {}

  // The effect key through docket::redis::Transaction, as a user's handler inserts it;
  // the side's prefix is read once per thread and side.
  void insert_effect(HandlerContext& ctx, const std::string& db,
                     std::string_view body) const override {
    thread_local std::string side;
    thread_local std::string prefix;
    if (side != db) {
      prefix = redis::detail::parse_url(db).prefix;
      side = db;
    }
    ctx.transaction<redis::Transaction>().insert(
        redis_effect_key(prefix, ctx.consumer_id(), ctx.envelope().message_id), body);
  }

  InboxRows count_rows(const std::string& db, const std::string& consumer_id) const override {
    const redis::detail::RedisUrl url = redis::detail::parse_url(db);
    const std::string records = glob_escape(url.key(redis::detail::kDedupNamespace)) +
                                "inbox:*:" + glob_escape(consumer_id);
    return {.dedup_rows = count_keys(db, records),
            .effects =
                count_keys(db, glob_escape(redis_effect_key(url.prefix, consumer_id, "")) + "*")};
  }

  std::unique_ptr<InboxSession> raw_session(const std::string& raw_db, std::string_view consumer_id,
                                            DedupCheck dedup) const override {
    return std::make_unique<RawInboxRedis>(raw_db, consumer_id, dedup);
  }

  std::unique_ptr<CommitProbe> commit_probe(const std::string& raw_db) const override {
    return std::make_unique<CommitProbeRedis>(raw_db);
  }
};

class RedisClaimBench final : public ClaimBench {
 public:
  std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                     std::size_t threads) const override {
    return redis::detail::open_claim_inbox_store(pooled(db, threads), SystemClock::instance());
  }

  void prepare(const BenchStore&) const override {}

  std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                   std::string_view run_id) const override {
    return std::make_unique<ClaimEffectRedis>(db, run_id);
  }

  // The run's entries (P inbox:{tenant}:{message}:{run id}) and their statuses.
  ClaimRows count_rows(const std::string& db, std::string_view handler_type) const override {
    RawRedis conn(db, RawRedis::Counting::kUncounted);
    ClaimRows rows;
    conn.scan(glob_escape(conn.url().key("inbox:")) + "*:" + glob_escape(handler_type),
              [&](const redisReply& keys) {
                for (std::size_t k = 0; k < keys.elements; ++k) {
                  const std::array<std::string_view, 3> get{"HGET", reply_text(*keys.element[k]),
                                                            "status"};
                  conn.append(get);
                }
                for (const RawReply& status : conn.read(keys.elements)) {
                  ++rows.entries;
                  rows.processed += reply_text(*status) == "processed" ? 1 : 0;
                }
              });
    count_redis_claim_effects(db, handler_type, rows);
    return rows;
  }

  std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                            std::string_view handler_type,
                                            std::string_view owner) const override {
    return std::make_unique<RawClaimRedis>(raw_db, handler_type, owner);
  }
};

class RedisEventsBench final : public EventsBench {
 public:
  std::unique_ptr<EventStore> open_docket_store(const std::string& db,
                                                std::size_t threads) const override {
    return redis::detail::open_event_store(pooled(db, threads), SystemClock::instance());
  }

  std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const override {
    return std::make_unique<RawEventsRedis>(raw_db);
  }

  StoredStreams stored_streams(const std::string& db,
                               std::string_view aggregate_type) const override {
    return redis_stored_streams(db, aggregate_type);
  }
};

class RedisOutboxBench final : public OutboxBench {
 public:
  // Relays lease disjoint messages (each claim one script run), so several share the
  // work; Redis runs one script at a time, so more relays than two gain little.
  std::vector<std::size_t> default_relays() const override { return {1, 2}; }

  std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                 std::size_t connections) const override {
    return redis::detail::open_outbox_store(pooled(db, connections), SystemClock::instance());
  }

  std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db, const std::string& source,
                                             const MessageIds& ids, PublishLog& log,
                                             std::size_t batch) const override {
    return std::make_unique<RawOutboxRedis>(raw_db, source, ids, log, batch);
  }

  OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const override {
    return redis_outbox_run_rows(db, run_id);
  }

  std::int64_t pending_rows(const std::string& db) const override {
    return redis_pending_outbox_rows(db);
  }
};

class RedisBench final : public ProviderBench {
 public:
  std::string_view example_url() const noexcept override {
    return "redis://:PASSWORD@127.0.0.1:6379/0";
  }

  // A server without an append-only file keeps its data in memory between snapshots,
  // but that cannot be told from the URL; `docket chaos` states what the server gives
  // (docs/redis.md "Durability").
  bool in_memory(std::string_view) const override { return false; }

  BenchStore bench_store(std::string_view url, std::string_view docket_side,
                         std::string_view raw_side) const override {
    redis::detail::parse_url(url);  // a malformed URL is refused as it is given
    return BenchStore{.url = std::string(url),
                      .provider = this,
                      .docket_db = side_url(url, docket_side),
                      .raw_db = side_url(url, raw_side),
                      .docket_schema = {},
                      .raw_schema = {}};
  }

  // Keys are made by their first writes.
  void create_sides(const BenchStore&) const override {}

  // Every key under each side's prefix, whichever benchmarks wrote them.
  void drop_sides(const BenchStore& store) const override {
    for (const std::string& db : {store.docket_db, store.raw_db}) {
      RawRedis conn(db, RawRedis::Counting::kUncounted);
      conn.scan(glob_escape(conn.url().prefix) + "*", [&](const redisReply& keys) {
        if (keys.elements == 0) {
          return;
        }
        std::vector<std::string_view> unlink{"UNLINK"};
        for (std::size_t k = 0; k < keys.elements; ++k) {
          unlink.push_back(reply_text(*keys.element[k]));
        }
        conn.run(unlink);
      });
    }
  }

  std::optional<RoundTrips> round_trips() const override {
    return RoundTrips{.docket = redis::detail::round_trips(), .raw = RawRedis::round_trips()};
  }

  const InboxBench* inbox() const noexcept override { return &inbox_; }
  const OutboxBench* outbox() const noexcept override { return &outbox_; }
  const EventsBench* events() const noexcept override { return &events_; }
  const ClaimBench* claim() const noexcept override { return &claim_; }

 private:
  RedisInboxBench inbox_;
  RedisOutboxBench outbox_;
  RedisEventsBench events_;
  RedisClaimBench claim_;
};

}  // namespace
}  // namespace docket::bench

// The entry point bench/bench_providers.cc calls, by the provider's name.
namespace docket::redis {

const bench::ProviderBench& bench_sides() {
  static const bench::RedisBench sides;
  return sides;
}

}  // namespace docket::redis
