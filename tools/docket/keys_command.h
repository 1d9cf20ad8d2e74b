// `docket keys ...`: prints the storage keys docket composes (src/keys), one
// subcommand per record kind, so an operator can see before an upgrade what a store
// will write.
#ifndef DOCKET_TOOLS_DOCKET_KEYS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_KEYS_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `keys` command group and its subcommands to `app`. A subcommand prints
// its result on stdout and throws docket::Error when the key is refused.
void add_keys_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_KEYS_COMMAND_H_
