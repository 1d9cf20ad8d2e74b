// docket outbox skip: marks one parked message skipped (done at now without being
// published) through OutboxStore::skip(), which releases its ordering key, so the later
// messages of that key flow again. For a message that must never be sent.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "docket/core/clock.h"
#include "docket/stores/printable_store_url.h"
#include "outbox_command.h"
#include "outbox_command_support.h"

namespace docket::tool {
namespace {

struct OutboxSkipArgs {
  std::string store;
  std::string id;
  bool dry_run = false;
  bool json = false;
};

void run_outbox_skip(const OutboxSkipArgs& args) {
  check_message_id("outbox skip", args.id);
  const auto store = open_shared_outbox("outbox skip", args.store);
  const OutboxRecord record =
      repair_parked_message(*store, "outbox skip", args.id, ParkedRepair::kSkip, args.dry_run);
  if (args.json) {
    std::cout << json_line({{"store", printable_store_url(args.store)},
                            {"id", args.id},
                            {"dry_run", args.dry_run},
                            {"skipped", !args.dry_run},
                            {"message", parked_json(record)}})
              << '\n';
    return;
  }
  const std::string key = record.ordering_key ? "its ordering key '" + *record.ordering_key +
                                                    "' (tenant " + record.tenant + ") is released"
                                              : "it has no ordering key to release";
  if (args.dry_run) {
    std::cout << "would skip message " << args.id << " of " << printable_store_url(args.store)
              << " (dry run: nothing changed); " << key << " once it is skipped\n";
    return;
  }
  std::cout << "skipped message " << args.id << " of " << printable_store_url(args.store)
            << ": done without being published, never sent; " << key << '\n';
}

}  // namespace

void add_outbox_skip_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxSkipArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "skip",
      "Mark one parked message skipped: done without being published, so it is never sent and "
      "the later messages of its ordering key flow again. An --id that names no parked message "
      "is refused (exit 1) and nothing is changed.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--id", args->id, "The parked message to skip (its outbox id)")->required();
  cmd->add_flag("--dry-run", args->dry_run, "Show what would be skipped; change nothing");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_skip(*args); });
}

}  // namespace docket::tool
