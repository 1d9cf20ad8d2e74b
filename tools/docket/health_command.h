// `docket health`: a probe for a container or a monitor, one line a check and an exit
// status: 0 when every check holds, 1 when one fails (a store that cannot be read
// fails its checks), 2 for a command line it refuses. health_command.cc.
//
// Thread-safety: the command's own thread.
#ifndef DOCKET_TOOLS_DOCKET_HEALTH_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_HEALTH_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

void add_health_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_HEALTH_COMMAND_H_
