// docket chaos: options, range checks and the report; the run is chaos/chaos_run.cc.
#include "chaos_command.h"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "chaos/chaos_run.h"
#include "chaos/chaos_worker.h"
#include "count_option.h"
#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"
#include "docket/transports/open_transport.h"
#include "duration_option.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

constexpr std::uint64_t kMaxKills = 100'000;
constexpr std::uint64_t kMaxRate = 10'000;
constexpr std::uint64_t kMaxDrainSeconds = 86'400;
constexpr const char* kStoreEnv = "DOCKET_CHAOS_STORE";
constexpr const char* kTransportEnv = "DOCKET_CHAOS_TRANSPORT";

struct ChaosArgs {
  std::string store;
  std::uint64_t kills = 10;
  std::uint64_t seed = 1;
  std::uint64_t rate = 100;
  std::uint64_t drain_timeout = 120;
  bool allow_server_restart = false;
  std::string transport;
  bool allow_broker_restart = false;
  std::string clock_skew;
  bool json = false;
};

// The longest --clock-skew: far beyond any lease, and a clock still within Timestamp.
constexpr std::chrono::hours kMaxClockSkew{24};

void check_range(const char* option, std::uint64_t value, std::uint64_t max) {
  if (value < 1 || value > max) {
    throw UsageError("chaos: " + std::string(option) + " is " + std::to_string(value) +
                     "; give 1 to " + std::to_string(max));
  }
}

nlohmann::json report_json(const ChaosReport& r, std::string_view store,
                           std::string_view transport) {
  const ChaosCheck& c = r.check;
  return {{"store", store},
          {"transport", transport},
          {"destination", r.destination},
          {"run", r.run},
          {"kills", r.kills},
          {"kills_producer", r.kills_of[0]},
          {"kills_relay", r.kills_of[1]},
          {"kills_consumer", r.kills_of[2]},
          {"kills_skewed_relay", r.kills_of[3]},
          {"clock_skew_seconds", r.clock_skew.count()},
          {"worker_exits", r.worker_exits},
          {"workers_failed", r.workers_failed()},
          {"connection_drops", r.connection_drops},
          {"server_crashes", r.server_crashes},
          {"broker_restarts", r.broker_restarts},
          {"store_durability", r.store_durability},
          {"orders", c.orders},
          {"messages", c.messages},
          {"unpublished", c.unpublished},
          {"published_copies", r.queue.published},
          {"deliveries", r.queue.deliveries},
          {"redeliveries", r.queue.redeliveries},
          {"duplicates_absorbed", r.queue.absorbed},
          {"invoices", c.invoices},
          {"lost", c.lost},
          {"doubled", c.doubled},
          {"phantom", c.phantom},
          {"orders_without_message", c.orders_without_message},
          {"dedup_without_effect", c.dedup_without_effect},
          {"effect_without_dedup", c.effect_without_dedup},
          {"outbox_checked", c.outbox_checked},
          {"events_checked", c.ledger.events_checked},
          {"events", c.ledger.events},
          {"version_gaps", c.ledger.version_gaps},
          {"events_doubled", c.ledger.events_doubled},
          {"events_lost", c.ledger.events_lost},
          {"sagas_checked", c.ledger.sagas_checked},
          {"saga_mismatches", c.ledger.saga_mismatches},
          {"drained", r.drained},
          {"seconds", r.seconds},
          {"ok", r.ok()}};
}

// The run's verdict, one line: ok, or the first reason it is not.
std::string verdict(const ChaosReport& r) {
  if (r.ok()) {
    return "ok: every order invoiced exactly once";
  }
  if (!r.drained) {
    return "FAILED: the run did not drain before the timeout";
  }
  if (!r.check.ok()) {
    return "FAILED: the checks above do not hold";
  }
  if (r.check.orders == 0) {
    return "FAILED: no order was placed, so nothing was checked (see the producer's log)";
  }
  return "FAILED: workers ended on their own " + std::to_string(r.worker_exits) +
         " times with no fault of the run's making (see their logs)";
}

void print_report(const ChaosReport& r, std::string_view store, std::string_view transport) {
  const ChaosCheck& c = r.check;
  std::cout << "docket chaos on " << store << ", run " << r.run << '\n';
  if (!transport.empty()) {
    std::cout << "across                " << transport << ", destination " << r.destination << '\n';
  }
  std::cout << "kills survived        " << r.kills << " (producer " << r.kills_of[0] << ", relay "
            << r.kills_of[1] << ", consumer " << r.kills_of[2]
            << (r.clock_skew.count() > 0
                    ? ", skewed relay " + std::to_string(r.kills_of[3]) + ", its clock " +
                          std::to_string(r.clock_skew.count()) + " s ahead"
                    : std::string())
            << ")\n"
            << "workers failed        " << r.worker_exits << " (started again)\n"
            << "server faults         " << r.connection_drops << " session drops, "
            << r.server_crashes << " crashes\n";
  if (!r.store_durability.empty()) {
    std::cout << "store durability      " << r.store_durability << '\n';
  }
  if (!transport.empty()) {
    std::cout << "broker restarts       " << r.broker_restarts << '\n';
  }
  std::cout << "orders                " << c.orders << '\n';
  if (c.outbox_checked) {
    std::cout << "outbox messages       " << c.messages << " (" << c.unpublished << " unpublished, "
              << c.orders_without_message << " orders without one)\n";
  } else {
    std::cout << "outbox messages       not checked: this store's outbox has no feed to read\n";
  }
  std::cout << (transport.empty() ? "queued copies         " : "confirmed copies      ")
            << r.queue.published << " (a relay killed before "
            << "marking a message publishes it again)\n"
            << "deliveries            " << r.queue.deliveries << " (" << r.queue.redeliveries
            << " redelivered after a consumer died)\n"
            << "duplicates absorbed   " << r.queue.absorbed << " (by billing's inbox)\n"
            << "invoices              " << c.invoices << '\n'
            << "lost                  " << c.lost << '\n'
            << "doubled               " << c.doubled << '\n';
  if (c.outbox_checked) {
    std::cout << "dedup vs invoices     " << c.dedup_without_effect << " dedup records without "
              << "an invoice, " << c.effect_without_dedup << " invoices without one\n";
  }
  const LedgerCheck& l = c.ledger;
  if (l.events_checked) {
    std::cout << "events                " << l.events << " in " << kChaosCustomers
              << " customer streams (" << l.version_gaps << " with a version gap, "
              << l.events_doubled << " orders twice, " << l.events_lost << " missing)\n";
  } else {
    std::cout << "events                not checked: this store's event store does not join "
                 "the inbox's unit of work\n";
  }
  if (l.sagas_checked) {
    std::cout << "account sagas         " << kChaosCustomers << " (" << l.saga_mismatches
              << " whose version or count is not one save per order)\n";
  } else {
    std::cout << "account sagas         not checked: this store's saga store does not join "
                 "the inbox's unit of work\n";
  }
  std::cout << verdict(r) << " (" << static_cast<int>(r.seconds) << " s)\n";
  if (!r.ok()) {
    std::cout << "the workers' logs and the queue are kept in " << r.work_dir << '\n';
  }
}

void run_chaos_command(const ChaosArgs& args) {
  check_range("--kills", args.kills, kMaxKills);
  check_range("--rate", args.rate, kMaxRate);
  check_range("--drain-timeout", args.drain_timeout, kMaxDrainSeconds);
  std::chrono::seconds clock_skew{0};
  if (!args.clock_skew.empty()) {
    const auto skew = parse_duration("--clock-skew", args.clock_skew);
    if (skew < std::chrono::seconds(1) || skew > kMaxClockSkew) {
      throw UsageError("chaos: --clock-skew is " + args.clock_skew + "; give 1s to 24h");
    }
    clock_skew = std::chrono::duration_cast<std::chrono::seconds>(skew);
  }
  const std::string store = printable_store_url(args.store);
  const std::string transport =
      args.transport.empty() ? std::string() : printable_transport_url(args.transport);
  const ChaosReport report =
      run_chaos({.store_url = args.store,
                 .kills = static_cast<int>(args.kills),
                 .seed = args.seed,
                 .orders_per_second = args.rate,
                 .allow_server_restart = args.allow_server_restart,
                 .transport_url = args.transport,
                 .allow_broker_restart = args.allow_broker_restart,
                 .clock_skew = clock_skew,
                 .drain_timeout = std::chrono::seconds(args.drain_timeout)},
                [](std::string_view line) { std::cerr << "chaos: " << line << '\n'; });
  if (args.json) {
    std::cout << report_json(report, store, transport).dump() << '\n';
  } else {
    print_report(report, store, transport);
  }
  if (!report.ok()) {
    throw Error("chaos: " + verdict(report) + "; " + std::to_string(report.check.lost) +
                " orders lost, " + std::to_string(report.check.doubled) +
                " invoiced twice, other checks as printed: the run does not show the "
                "effectively-once promise holding; its logs are in " +
                report.work_dir);
  }
}

struct WorkerArgs {
  std::string role;
  std::string queue;
  std::string run;
  std::uint64_t rate = 100;
  std::string destination;
  std::string tally_dir;
  std::uint64_t clock_skew_seconds = 0;
};

void run_worker_command(const WorkerArgs& args) {
  const char* store = std::getenv(kStoreEnv);
  if (store == nullptr) {
    throw ConfigurationError(std::string("chaos-worker: ") + kStoreEnv +
                             " names no store; this command is started by `docket chaos`");
  }
  check_range("--rate", args.rate, kMaxRate);
  if (args.clock_skew_seconds >
      static_cast<std::uint64_t>(std::chrono::seconds(kMaxClockSkew).count())) {
    throw UsageError("chaos-worker: --clock-skew-seconds is " +
                     std::to_string(args.clock_skew_seconds) + "; give at most " +
                     std::to_string(std::chrono::seconds(kMaxClockSkew).count()));
  }
  const char* transport = std::getenv(kTransportEnv);
  if ((transport == nullptr) != args.destination.empty() ||
      args.destination.empty() != args.tally_dir.empty()) {
    throw ConfigurationError(std::string("chaos-worker: ") + kTransportEnv +
                             ", --destination and --tally-dir go together; this command is "
                             "started by `docket chaos`");
  }
  run_chaos_worker({.role = parse_role(args.role).value(),
                    .store_url = store,
                    .queue_path = args.queue,
                    .run = args.run,
                    .orders_per_second = args.rate,
                    .transport_url = transport == nullptr ? "" : transport,
                    .destination = args.destination,
                    .tally_dir = args.tally_dir,
                    .clock_skew = std::chrono::seconds(args.clock_skew_seconds)});
}

}  // namespace

void add_chaos_command(CLI::App& app) {
  auto args = std::make_shared<ChaosArgs>();
  CLI::App* chaos = app.add_subcommand(
      "chaos",
      "Run the order pipeline's producer, relay and consumer as separate processes on a real "
      "store, SIGKILL them at random and start them again, then check that every order was "
      "invoiced exactly once. Exit 1 when an order was lost or invoiced twice.");
  chaos
      ->add_option("--store", args->store,
                   "Store URL: sqlite:///tmp/chaos.db, postgresql://user@host:port/db, or "
                   "another provider's with order services")
      ->required();
  chaos->add_option("--kills", args->kills, "SIGKILLs to survive (1 to 100000)")
      ->check(whole_count())
      ->capture_default_str();
  chaos->add_option("--seed", args->seed, "Seed of the kills' moments and victims")
      ->check(whole_count())
      ->capture_default_str();
  chaos->add_option("--rate", args->rate, "Orders the producer places a second (1 to 10000)")
      ->check(whole_count())
      ->capture_default_str();
  chaos
      ->add_option("--drain-timeout", args->drain_timeout,
                   "Seconds to wait, after the last kill, for everything to drain (1 to 86400)")
      ->check(whole_count())
      ->capture_default_str();
  chaos->add_flag("--allow-server-restart", args->allow_server_restart,
                  "PostgreSQL on this machine: also end the workers' sessions and crash the "
                  "server (it restarts with crash recovery) every fifth kill");
  chaos->add_option("--transport", args->transport,
                    "Broker URL the relay publishes to and the consumer reads from, instead of "
                    "the run's own queue: amqp://user:password@host:port/vhost?exchange=name "
                    "(the run uses a destination and a consumer group queue of its own)");
  chaos->add_flag("--allow-broker-restart", args->allow_broker_restart,
                  "With --transport, a broker on this machine: also restart the broker every "
                  "tenth kill");
  chaos
      ->add_option("--clock-skew", args->clock_skew,
                   "Also run a second relay whose clock runs this far ahead (1s to 24h; "
                   "more than a lease, 2s, to matter), killed like the others")
      ->check(duration_text());
  chaos->add_flag("--json", args->json,
                  "Print one JSON object on one line: kills, orders, deliveries, "
                  "duplicates_absorbed, lost, doubled, ok, ...");
  chaos->callback([args] { run_chaos_command(*args); });

  auto worker = std::make_shared<WorkerArgs>();
  CLI::App* worker_cmd =
      app.add_subcommand("chaos-worker", "One process of `docket chaos` (started by it)");
  worker_cmd->group("");  // hidden: not for users to start
  worker_cmd->add_option("--role", worker->role)
      ->required()
      ->check(CLI::IsMember({"producer", "relay", "consumer", "skewed-relay"}));
  worker_cmd->add_option("--queue", worker->queue)->required();
  worker_cmd->add_option("--run", worker->run)->required();
  worker_cmd->add_option("--rate", worker->rate)->check(whole_count());
  worker_cmd->add_option("--destination", worker->destination);
  worker_cmd->add_option("--tally-dir", worker->tally_dir);
  worker_cmd->add_option("--clock-skew-seconds", worker->clock_skew_seconds)->check(whole_count());
  worker_cmd->callback([worker] { run_worker_command(*worker); });
}

}  // namespace docket::tool
