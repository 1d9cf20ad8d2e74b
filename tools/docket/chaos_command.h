// `docket chaos`: the order pipeline as separate processes on a real store, killed at
// random and started again, then checked: every order invoiced exactly once
// (chaos/chaos_run.h). `docket chaos-worker` (hidden) is the process it starts.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds `chaos` and the hidden `chaos-worker` to `app`. `chaos` throws docket::Error
// (exit 1) after printing its report when an order was lost or invoiced twice, or any
// other check failed.
void add_chaos_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_COMMAND_H_
