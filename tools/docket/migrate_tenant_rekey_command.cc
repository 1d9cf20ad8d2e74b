// docket migrate tenant-rekey --store URL --tenant T [--dry-run] [--yes]: the re-key of
// legacy untenanted event and saga records under one tenant (docket/stores/tenant_rekey.h),
// with a line on stdout per stream or saga moved (the run's log, written as it goes),
// a progress bar on stderr when it is a terminal, and a final report.
#include <unistd.h>

#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/stores/printable_store_url.h"
#include "docket/stores/tenant_rekey.h"
#include "migrate_command.h"

namespace docket::tool {
namespace {

constexpr int kBarWidth = 30;

struct RekeyArgs {
  std::string store;
  std::string tenant;
  bool dry_run = false;
  bool yes = false;
  bool only_named = false;
  bool json = false;
  std::vector<std::string> aggregate_types;
  std::vector<std::string> saga_types;
};

void draw_bar(std::uint64_t done, std::uint64_t total) {
  const auto filled = total == 0 ? kBarWidth : static_cast<int>(done * kBarWidth / total);
  std::cerr << "\r  [" << std::string(static_cast<std::size_t>(filled), '#')
            << std::string(static_cast<std::size_t>(kBarWidth - filled), ' ') << "] " << done << '/'
            << total << std::flush;
}

void print_report(const TenantRekeyReport& report, const RekeyArgs& args) {
  const char* moved = args.dry_run ? " to move" : " moved";
  std::cout << "tenant    " << args.tenant << '\n'
            << "streams   " << report.streams << moved << " (" << report.events << " events"
            << moved << ", " << report.events_already << " already moved)\n"
            << "sagas     " << report.sagas << moved << " (" << report.sagas_already
            << " already moved)\n";
  if (args.dry_run) {
    std::cout << "dry run   nothing written\n";
  } else {
    std::cout << "verified  " << report.streams_verified << " streams, " << report.sagas_verified
              << " sagas, loaded under the tenant\n";
  }
}

nlohmann::json report_json(const TenantRekeyReport& report, const RekeyArgs& args,
                           const std::string& store) {
  return {{"store", store},
          {"provider", report.provider},
          {"tenant", args.tenant},
          {"dry_run", args.dry_run},
          {"streams", report.streams},
          {"events", report.events},
          {"events_already_moved", report.events_already},
          {"sagas", report.sagas},
          {"sagas_already_moved", report.sagas_already},
          {"streams_verified", report.streams_verified},
          {"sagas_verified", report.sagas_verified}};
}

void run_rekey(const RekeyArgs& args) {
  try {
    (void)TenantId::from_stored(args.tenant);
  } catch (const InvalidInputError& error) {
    std::string why = error.what();
    if (why.ends_with('.')) {
      why.pop_back();
    }
    throw InvalidInputError("--tenant: " + why + "; nothing was read or written");
  }
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  const std::string printable = printable_store_url(args.store);
  std::cerr << "docket: migrate tenant-rekey: " << (args.dry_run ? "dry run on " : "re-keying ")
            << printable << " under tenant '" << args.tenant << "'\n";
  TenantRekeyOptions options{
      .tenant = args.tenant,
      .new_tenant_confirmed = args.yes,
      .dry_run = args.dry_run,
      .only_named = args.only_named,
      .aggregate_types = args.aggregate_types,
      .saga_types = args.saga_types,
      .on_progress =
          [&](std::string_view what, std::uint64_t done, std::uint64_t total) {
            if (!args.json) {
              std::cout << (args.dry_run ? "would move " : "moved ") << what << std::endl;
            }
            if (terminal) {
              draw_bar(done, total);
            }
          },
      .on_stream_progress =
          [&](std::string_view stream, std::uint64_t moved, std::uint64_t events) {
            if (!args.json) {
              std::cout << "moving " << stream << ": " << moved << " of " << events
                        << " events moved" << std::endl;
            }
          }};
  const TenantRekeyReport report = rekey_tenant(args.store, options);
  if (terminal) {
    std::cerr << '\n';
  }
  if (args.json) {
    std::cout << report_json(report, args, printable).dump() << '\n';
  } else {
    print_report(report, args);
  }
}

}  // namespace

void add_migrate_tenant_rekey_subcommand(CLI::App& migrate_group) {
  auto args = std::make_shared<RekeyArgs>();
  CLI::App* command = migrate_group.add_subcommand(
      "tenant-rekey",
      "Re-key event streams and sagas stored without a tenant segment under one tenant "
      "(DynamoDB, Firestore, Cosmos DB), then verify each through the stores");
  command->footer(
      "Run it with every writer stopped. Every legacy record (an event stream or saga keyed\n"
      "without its tenant, as `docket migrate scan` counts them) is written under the\n"
      "tenant-keyed shape of --tenant and its old record deleted in the same atomic write\n"
      "(streams in version order, in batches within the store's limit); then each stream\n"
      "and saga moved is loaded through the stores under the new key and checked against\n"
      "the export (event count, last version, every event id; saga version and state).\n"
      "\n"
      "The tenant: __default__ for a single-tenant deployment, __untenanted__ for one that\n"
      "never set a tenant scope. Any other tenant that no stream or saga of the store is\n"
      "keyed under yet needs --yes: a mistyped tenant strands every record under keys no\n"
      "reader asks for (a dry run is held to the same check). A blank tenant is refused,\n"
      "and so is a record whose own tenant field names another tenant: re-key such\n"
      "records first, tenant by tenant, with --only-named, which moves only the records\n"
      "whose tenant field names --tenant and leaves every other one (the untenanted among\n"
      "them) for a later run.\n"
      "\n"
      "A legacy key whose raw terms hold the separator more than once (':' in\n"
      "{aggregateType}:{aggregateId}, '_' in a Firestore {sagaId}_{sagaType}) is split by the\n"
      "document's own term fields when it has them, else by the one --aggregate-type\n"
      "(--saga-type) given that fits it; otherwise the run is refused before anything is\n"
      "written, listing every such key. Never a guess.\n"
      "\n"
      "Resumable: an interrupted run leaves each batch moved or not; the next run finishes.\n"
      "A legacy record whose new key holds the same record is only deleted; one whose new\n"
      "key holds another record stops the run, naming both keys. Prints a line per stream\n"
      "or saga moved, a progress bar on a terminal, and a report. Exit 1 when refused.");
  command
      ->add_option("--store", args->store,
                   "Store URL: dynamodb://..., firestore://... or cosmos://...")
      ->required();
  command
      ->add_option("--tenant", args->tenant,
                   "The tenant every legacy record belongs to (__default__, __untenanted__, "
                   "or a tenant of the store; another needs --yes)")
      ->required();
  command->add_flag("--dry-run", args->dry_run, "Export, split and count; write nothing");
  command->add_flag("--yes", args->yes,
                    "The tenant is meant although the store holds nothing under it yet");
  command->add_flag("--only-named", args->only_named,
                    "Only the legacy records whose own tenant field names --tenant; leave the "
                    "others (untenanted ones among them) as they are");
  command->add_option("--aggregate-type", args->aggregate_types,
                      "An aggregate type of the deployment, to split legacy stream keys whose "
                      "terms hold ':' (repeatable)");
  command->add_option("--saga-type", args->saga_types,
                      "A saga type of the deployment, to split Firestore legacy saga ids whose "
                      "terms hold '_' (repeatable)");
  command->add_flag("--json", args->json, "Print the report as one JSON object, no log lines");
  command->callback([args] { run_rekey(*args); });
}

}  // namespace docket::tool
