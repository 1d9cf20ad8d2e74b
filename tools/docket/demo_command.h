// `docket demo`: the main job. Runs the order pipeline of examples/order_pipeline
// (outbox -> relay -> faulty in-process transport -> inbox) on an embedded SQLite file
// and prints a summary a reader can check: invoices == orders, none twice.
#ifndef DOCKET_TOOLS_DOCKET_DEMO_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_DEMO_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `demo` command to `app`. It throws docket::Error (exit 1) when the pipeline
// ends with invoices != orders or a duplicate invoice, after printing the summary.
void add_demo_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DEMO_COMMAND_H_
