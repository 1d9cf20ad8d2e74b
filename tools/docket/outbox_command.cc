#include "outbox_command.h"

namespace docket::tool {

void add_outbox_command(CLI::App& app) {
  CLI::App* outbox = app.add_subcommand(
      "outbox",
      "Inspect and repair an outbox: count its messages, list parked ones, replay them, skip "
      "one that must not be sent, or cancel a pending one before it is published.");
  outbox->require_subcommand(1);
  add_outbox_stats_subcommand(*outbox);
  add_outbox_list_subcommand(*outbox);
  add_outbox_replay_subcommand(*outbox);
  add_outbox_skip_subcommand(*outbox);
  add_outbox_cancel_subcommand(*outbox);
  add_outbox_purge_parked_subcommand(*outbox);
}

}  // namespace docket::tool
