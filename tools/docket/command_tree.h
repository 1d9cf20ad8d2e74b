// The docket tool's command tree: the top-level app with every command group added
// (add_<group>_command), built in one place for main() and for the command-line fuzz
// target (tests/fuzz/cli_fuzz.cc), which parses the same tree and stops it, complete
// and checked, before any command runs.
//
// Thread-safety: the app is a value of the calling thread.
#ifndef DOCKET_TOOLS_DOCKET_COMMAND_TREE_H_
#define DOCKET_TOOLS_DOCKET_COMMAND_TREE_H_

#include <CLI/CLI.hpp>
#include <memory>

namespace docket::tool {

// The app `docket` parses its arguments with: one subcommand required, usage errors
// worded "docket: ...", and every command group of this build. Each command runs in its
// callback, during CLI::App::parse.
std::unique_ptr<CLI::App> make_command_tree();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_COMMAND_TREE_H_
