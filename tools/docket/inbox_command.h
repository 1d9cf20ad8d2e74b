// `docket inbox ...`: an operator's view of a claim inbox (docket/inbox/claim_inbox_store.h)
// on any provider that has one: `inbox stats` (entries by status, the oldest pending,
// failed entries due for retry), `inbox failed` (the entries whose handler failed, with
// their last error), `inbox retry` (failed entries made due for a retry now, one or
// every one a filter matches) and `inbox cleanup` (processed entries older than a
// duration, for one tenant or all, with --dry-run).
#ifndef DOCKET_TOOLS_DOCKET_INBOX_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_INBOX_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `inbox` command group and its subcommands to `app`.
void add_inbox_command(CLI::App& app);

// inbox stats (inbox_stats_command.cc).
void add_inbox_stats_subcommand(CLI::App& inbox_group);
// inbox failed (inbox_failed_command.cc).
void add_inbox_failed_subcommand(CLI::App& inbox_group);
// inbox retry (inbox_retry_command.cc).
void add_inbox_retry_subcommand(CLI::App& inbox_group);
// inbox cleanup (inbox_cleanup_command.cc).
void add_inbox_cleanup_subcommand(CLI::App& inbox_group);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_INBOX_COMMAND_H_
