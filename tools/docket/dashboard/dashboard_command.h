// `docket dashboard --store URL [--listen 127.0.0.1:8088] [--token T]`: one page over a
// small JSON API showing what an operator repairs by hand (the outbox by status and
// destination, parked messages with replay and skip, failed claim entries with retry,
// sagas by status, projections and their lag), refreshed live; docs/dashboard.md.
// Serves until SIGINT or SIGTERM, then exits 0. Exit status 2 for a --listen or
// --token it refuses (and for an address off loopback without --token), 1 for a store
// URL it cannot use or an address it cannot listen on (the port in use).
//
// Thread-safety: the command's own thread; requests are answered on the server's.
#ifndef DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

void add_dashboard_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DASHBOARD_DASHBOARD_COMMAND_H_
