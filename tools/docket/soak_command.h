// `docket soak`: the order pipeline at a steady rate for a long time with retention
// running, sampling memory, descriptors and docket's table sizes (soak/soak_run.h).
#ifndef DOCKET_TOOLS_DOCKET_SOAK_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_SOAK_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds `soak` to `app`. It throws docket::Error (exit 1) after its report when memory
// grew, a table outgrew its bound, or an order was lost or invoiced twice.
void add_soak_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_SOAK_COMMAND_H_
