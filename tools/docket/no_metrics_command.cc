// add_metrics_command of a build without docket::prometheus (DOCKET_PROMETHEUS OFF,
// see CMakeLists.txt, which compiles this file instead of metrics_command.cc): the
// tool then has no `metrics` command, and the command tree is the same code either way.
#include "metrics_command.h"

namespace docket::tool {

void add_metrics_command(CLI::App& /*app*/) {}

}  // namespace docket::tool
