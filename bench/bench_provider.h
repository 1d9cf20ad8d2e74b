// What a provider gives `docket bench`: where the two sides of a run live on it, and
// for each benchmark it has a raw baseline for, docket's store on a side, the raw
// baseline's sessions and the checks that read a side's database bypassing docket.
//
// Each provider's bench side lives in its own folder (src/providers/<name>/bench/,
// library docket_<name>_bench, linked by the tool only) and is listed with the provider
// by builtin_providers.cmake; the bench core (inbox_bench.cc, ...) reaches it through
// these interfaces only, so a provider's raw side adds files in its folder alone. A
// benchmark a provider has no raw side for is refused, naming the providers that have.
//
// Thread-safety: implementations are immutable; every member may be called from many
// threads (a session belongs to the thread that uses it).
#ifndef DOCKET_BENCH_BENCH_PROVIDER_H_
#define DOCKET_BENCH_BENCH_PROVIDER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench_store.h"
#include "claim_effect.h"
#include "claim_session.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/inbox_options.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"
#include "event_session.h"
#include "inbox_session.h"
#include "message_ids.h"
#include "outbox_session.h"
#include "outbox_workload.h"

namespace docket::bench {

class LatencyBench;  // latency_side.h

// `docket bench inbox` on one provider (the workload: inbox_workload.h).
class InboxBench {
 public:
  virtual ~InboxBench() = default;

  // docket's inbox store on the side database `db` (BenchStore::docket_db), with
  // enough pooled connections for `threads` threads where the provider pools them.
  virtual std::unique_ptr<InboxStore> open_docket_store(const std::string& db,
                                                        std::size_t threads) const = 0;
  // Set-up, not measured: gives the raw side's database docket's inbox schema and
  // creates the effect table on both sides.
  virtual void prepare(const BenchStore& store) const = 0;
  // What docket's handler does per message: inserts the effect row (consumer id,
  // message id, body) into the side database `db` (docket's side) through the unit of
  // work's native transaction, as a user's handler would.
  virtual void insert_effect(HandlerContext& context, const std::string& db,
                             std::string_view body) const = 0;
  // The dedup and effect rows of `consumer_id` in the side database `db`.
  virtual InboxRows count_rows(const std::string& db, const std::string& consumer_id) const = 0;
  // One thread's raw baseline on the side database `raw_db`. `dedup` is the check
  // docket's side runs: a document provider's raw side sends the requests docket's
  // store sends under it (a read of the dedup record before the commit under
  // kBeforeHandlers), directly; the SQL providers' raw sides send the same statements
  // under either check (docs/benchmarks/inbox.md says what each sends).
  virtual std::unique_ptr<InboxSession> raw_session(const std::string& raw_db,
                                                    std::string_view consumer_id,
                                                    DedupCheck dedup) const = 0;
  // One thread's commit-latency probe on the side database `raw_db`; nullptr where the
  // provider has none.
  virtual std::unique_ptr<CommitProbe> commit_probe(const std::string& /*raw_db*/) const {
    return nullptr;
  }
};

// `docket bench outbox` on one provider (the workload: outbox_workload.h).
class OutboxBench {
 public:
  virtual ~OutboxBench() = default;

  // The relay counts a run compares when the user names none.
  virtual std::vector<std::size_t> default_relays() const = 0;
  // docket's outbox store on the side database `db`, with at least `connections`
  // pooled connections. Opening it does not migrate it.
  virtual std::unique_ptr<OutboxStore> open_docket_store(const std::string& db,
                                                         std::size_t connections) const = 0;
  // One thread's raw baseline on the side database `raw_db` (migrated): `ids` and
  // `log` outlive it, `source` is the run id.
  virtual std::unique_ptr<OutboxSession> raw_session(const std::string& raw_db,
                                                     const std::string& source,
                                                     const MessageIds& ids, PublishLog& log,
                                                     std::size_t batch) const = 0;
  // The rows of the run `run_id` (message_source) in the side database `db`.
  virtual OutboxRunRows run_rows(const std::string& db, std::string_view run_id) const = 0;
  // The pending rows in `db`, of any run or producer.
  virtual std::int64_t pending_rows(const std::string& db) const = 0;
};

// `docket bench events` on one provider (the workload: event_workload.h).
class EventsBench {
 public:
  virtual ~EventsBench() = default;

  // docket's event store on the side database `db`, with a pooled connection per
  // thread; opening it creates the event sourcing tables.
  virtual std::unique_ptr<EventStore> open_docket_store(const std::string& db,
                                                        std::size_t threads) const = 0;
  // One thread's raw baseline on the side database `raw_db` (migrated).
  virtual std::unique_ptr<EventSession> raw_session(const std::string& raw_db) const = 0;
  // The bench tenant's streams of `aggregate_type` in the side database `db`.
  virtual StoredStreams stored_streams(const std::string& db,
                                       std::string_view aggregate_type) const = 0;
};

// `docket bench claim` on one provider (the workload: claim_workload.h).
class ClaimBench {
 public:
  virtual ~ClaimBench() = default;

  // docket's claim inbox store on the side database `db`, with enough pooled
  // connections for `threads` threads where the provider pools them.
  virtual std::unique_ptr<ClaimInboxStore> open_docket_store(const std::string& db,
                                                             std::size_t threads) const = 0;
  // Set-up, not measured: gives the raw side's database docket's claim inbox schema
  // and makes the claim effects table (claim_effect.h) on both sides.
  virtual void prepare(const BenchStore& store) const = 0;
  // One thread's writer of the run `run_id`'s effects into the side database `db`
  // (prepared), the same on both sides.
  virtual std::unique_ptr<ClaimEffectWriter> effect_writer(const std::string& db,
                                                           std::string_view run_id) const = 0;
  // The entries of `handler_type` (a run's, its run id) in the side database `db`, and
  // the run's effects there.
  virtual ClaimRows count_rows(const std::string& db, std::string_view handler_type) const = 0;
  // One thread's raw baseline on the side database `raw_db` (prepared), claiming the
  // entries of `handler_type` as `owner`.
  virtual std::unique_ptr<ClaimSession> raw_session(const std::string& raw_db,
                                                    std::string_view handler_type,
                                                    std::string_view owner) const = 0;
};

// Round trips to the database so far in this process: docket's provider's and the raw
// baselines', each a running total (a benchmark reads them before and after a case).
struct RoundTrips {
  std::uint64_t docket = 0;
  std::uint64_t raw = 0;
};

// Request units so far in this process (what a database bills a request: Cosmos DB's
// x-ms-request-charge) of the requests round_trips() counts, each side's a running
// total; nullopt for a side whose charges the provider cannot read, or where it bills
// none.
struct RequestUnits {
  std::optional<double> docket;
  std::optional<double> raw;
};

class ProviderBench {
 public:
  virtual ~ProviderBench() = default;

  // A URL of this provider for examples: "sqlite:///tmp/bench.db".
  virtual std::string_view example_url() const noexcept = 0;
  // Whether `url` (a URL of this provider) names a database that lives in memory
  // only: no durable commit to measure, so the bench refuses it.
  virtual bool in_memory(std::string_view url) const = 0;
  // Where the two sides of a run on `url` (a URL of this provider, not in memory)
  // live. Each side has a database of the same shape: a twin file, or a namespace of
  // one server named `docket_side` / `raw_side` (ignored where the provider has none).
  // Throws ConfigurationError for a URL a benchmark cannot run on, saying why.
  virtual BenchStore bench_store(std::string_view url, std::string_view docket_side,
                                 std::string_view raw_side) const = 0;
  // Creates both sides' namespaces when missing (set-up, before docket's store
  // migrates into its own); nothing where the provider has none.
  virtual void create_sides(const BenchStore& store) const = 0;
  // Drops both sides' namespaces with everything in them (a run's own, when it ends);
  // nothing where the provider has none. Throws InfrastructureError.
  virtual void drop_sides(const BenchStore& store) const = 0;

  // The round-trip totals, or nullopt where the provider makes none (an embedded
  // database is called, not talked to).
  virtual std::optional<RoundTrips> round_trips() const { return std::nullopt; }
  // The request-unit totals; none where the provider's database bills none.
  virtual RequestUnits request_units() const { return {}; }

  // The benchmarks it has a raw baseline for; nullptr: none.
  virtual const InboxBench* inbox() const noexcept { return nullptr; }
  virtual const OutboxBench* outbox() const noexcept { return nullptr; }
  virtual const EventsBench* events() const noexcept { return nullptr; }
  virtual const ClaimBench* claim() const noexcept { return nullptr; }
  // `docket bench latency`'s stores where the provider has no outbox bench side, whose
  // docket store it uses otherwise (latency_side.h); nullptr: none.
  virtual const LatencyBench* latency() const noexcept { return nullptr; }
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_BENCH_PROVIDER_H_
