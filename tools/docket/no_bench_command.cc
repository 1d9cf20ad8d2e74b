// add_bench_command of a build without the benchmarks (no bench/ target, see
// CMakeLists.txt, which compiles this file instead of bench_command.cc): the tool then
// has no `bench` command, and the command tree (command_tree.cc) is the same code
// either way.
#include "bench_command.h"

namespace docket::tool {

void add_bench_command(CLI::App& /*app*/) {}

}  // namespace docket::tool
