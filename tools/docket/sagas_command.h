// `docket sagas show`: one saga's record, read through the store itself, so that
// what an operator sees is what the application would load, the legacy-key guard
// included: while documents of an earlier release's untenanted shape remain, the command
// fails (exit 1) with the guard's message, before a re-key and never after it.
// `docket sagas list`: the sagas of a store, filtered, through SagaStore::list().
#ifndef DOCKET_TOOLS_DOCKET_SAGAS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_SAGAS_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `sagas` command group and its `show` subcommand (sagas_show_command.cc).
void add_sagas_command(CLI::App& app);

// Adds `list` to the `sagas` group (sagas_list_command.cc).
void add_sagas_list_subcommand(CLI::App& sagas_group);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_SAGAS_COMMAND_H_
