#include "inbox_command.h"

namespace docket::tool {

void add_inbox_command(CLI::App& app) {
  CLI::App* inbox = app.add_subcommand(
      "inbox",
      "Inspect, retry and clean a claim inbox: entries by status, failed entries (and their "
      "retry), processed entries past retention.");
  inbox->require_subcommand(1);
  add_inbox_stats_subcommand(*inbox);
  add_inbox_failed_subcommand(*inbox);
  add_inbox_retry_subcommand(*inbox);
  add_inbox_cleanup_subcommand(*inbox);
}

}  // namespace docket::tool
