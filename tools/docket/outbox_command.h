// `docket outbox ...`: an operator's hands on an outbox (docket/outbox/outbox_store.h)
// on any provider whose store other processes can open: `outbox list --status parked`
// (the messages the relay gave up on, with their last error, filtered), `outbox
// replay` (one parked message by --id, or every one a filter matches with --all, made
// pending again) and `outbox skip` (one parked message marked done without being
// published, releasing its ordering key). Each reads and writes through the store's own
// SPI (parked(), find(), replay(), skip()), never around it.
//
// Thread-safety: adds commands to an app of the calling thread.
#ifndef DOCKET_TOOLS_DOCKET_OUTBOX_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_OUTBOX_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `outbox` command group and its subcommands to `app`.
void add_outbox_command(CLI::App& app);

// outbox list (outbox_list_command.cc).
void add_outbox_list_subcommand(CLI::App& outbox_group);
// outbox replay (outbox_replay_command.cc).
void add_outbox_replay_subcommand(CLI::App& outbox_group);
// outbox skip (outbox_skip_command.cc).
void add_outbox_skip_subcommand(CLI::App& outbox_group);
// outbox cancel (outbox_cancel_command.cc).
void add_outbox_cancel_subcommand(CLI::App& outbox_group);
// outbox stats (outbox_stats_command.cc).
void add_outbox_stats_subcommand(CLI::App& outbox_group);
// outbox purge-parked (outbox_purge_parked_command.cc).
void add_outbox_purge_parked_subcommand(CLI::App& outbox_group);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_OUTBOX_COMMAND_H_
