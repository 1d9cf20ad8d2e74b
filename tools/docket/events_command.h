// `docket events show`: one stream's events, read through the store itself, so that
// what an operator sees is what the application would load, the legacy-key guard
// included: while documents of an earlier release's untenanted shape remain, the command
// fails (exit 1) with the guard's message, before a re-key and never after it.
#ifndef DOCKET_TOOLS_DOCKET_EVENTS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_EVENTS_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `events` command group and its `show` subcommand (events_show_command.cc).
void add_events_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_EVENTS_COMMAND_H_
