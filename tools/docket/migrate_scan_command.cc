// docket migrate scan: how many records a store holds under a key shape docket no longer
// writes, where, and examples (docket/stores/legacy_scan.h). Read-only.
#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/stores/legacy_scan.h"
#include "docket/stores/printable_store_url.h"
#include "migrate_command.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

// Most examples a place may list.
constexpr std::uint64_t kMaxExamples = 1000;

struct ScanArgs {
  std::string store;
  std::uint64_t examples = 5;
  bool json = false;
};

void print_scan(const LegacyScan& scan, const std::string& store) {
  std::cout << "store     " << store << '\n';
  if (scan.places.empty()) {
    std::cout << "the " << scan.provider
              << " provider keys records by columns: no legacy key shapes to scan\n";
    return;
  }
  for (const LegacyKeyPlace& place : scan.places) {
    std::cout << place.where << ": ";
    if (!place.exists) {
      std::cout << "empty or absent\n";
      continue;
    }
    std::cout << place.legacy << " legacy " << place.records << '\n';
    for (const std::string& key : place.examples) {
      std::cout << "  " << key << '\n';
    }
  }
  std::cout << "legacy    " << scan.legacy()
            << (scan.legacy() == 0 ? " (nothing to re-key)" : " (see docs/migrations.md)") << '\n';
}

void run_scan(const ScanArgs& args) {
  if (args.examples > kMaxExamples) {
    throw UsageError("--examples " + std::to_string(args.examples) +
                     " is more than a scan lists (at most " + std::to_string(kMaxExamples) +
                     " a place)");
  }
  const LegacyScan scan = scan_legacy_keys(args.store, static_cast<std::size_t>(args.examples));
  const std::string printable = printable_store_url(args.store);
  if (!args.json) {
    print_scan(scan, printable);
    return;
  }
  nlohmann::json places = nlohmann::json::array();
  for (const LegacyKeyPlace& place : scan.places) {
    places.push_back({{"where", place.where},
                      {"records", place.records},
                      {"exists", place.exists},
                      {"legacy", place.legacy},
                      {"examples", place.examples}});
  }
  std::cout << nlohmann::json{{"store", printable},
                              {"provider", scan.provider},
                              {"legacy", scan.legacy()},
                              {"places", std::move(places)}}
                   .dump()
            << '\n';
}

}  // namespace

void add_migrate_scan_subcommand(CLI::App& migrate_group) {
  auto args = std::make_shared<ScanArgs>();
  CLI::App* cmd = migrate_group.add_subcommand(
      "scan",
      "Count the records a store holds under a key shape docket no longer writes (untenanted "
      "event streams and sagas), with examples of their keys; reads every key, writes nothing");
  cmd->add_option("--store", args->store, "Store URL, e.g. dynamodb://aws?region=eu-west-1")
      ->required();
  cmd->add_option("--examples", args->examples,
                  "Keys to list for each table or collection (default 5, at most 1000)")
      ->check(whole_count());
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_scan(*args); });
}

}  // namespace docket::tool
