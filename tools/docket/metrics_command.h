// `docket metrics --store URL [--listen 127.0.0.1:9464]`: serves the store gauges
// (docket/prometheus/store_gauges.h: outbox backlog and oldest age, parked messages,
// claim inbox entries by status, projection lag) in Prometheus' text format at
// http://<listen>/metrics until SIGINT or SIGTERM, for a deployment whose services do
// not embed an exposer. metrics_command.cc; no_metrics_command.cc in a build without
// docket::prometheus (the tool then has no `metrics` command).
//
// Thread-safety: the command's own thread (the exposer's threads read the stores, which
// are thread-safe).
#ifndef DOCKET_TOOLS_DOCKET_METRICS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_METRICS_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

void add_metrics_command(CLI::App& app);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_METRICS_COMMAND_H_
