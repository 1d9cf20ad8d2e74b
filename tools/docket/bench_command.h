// `docket bench ...`: benchmarks that measure docket against the raw limit of the same
// work in one run (library docket::bench, bench/), one subcommand per component.
#ifndef DOCKET_TOOLS_DOCKET_BENCH_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_BENCH_COMMAND_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Adds the `bench` command group and its subcommands to `app`. A subcommand prints its
// report on stdout; when the run's consistency checks fail it throws CheckFailed
// (check_failed.h) after printing the report. In a build without the benchmarks
// (no_bench_command.cc) it adds nothing.
void add_bench_command(CLI::App& app);

// bench inbox (bench_inbox_command.cc).
void add_bench_inbox_subcommand(CLI::App& bench_group);
// bench events (bench_events_command.cc).
void add_bench_events_subcommand(CLI::App& bench_group);
// bench outbox (bench_outbox_command.cc).
void add_bench_outbox_subcommand(CLI::App& bench_group);
// bench claim (bench_claim_command.cc).
void add_bench_claim_subcommand(CLI::App& bench_group);
// bench keys (bench_keys_command.cc).
void add_bench_keys_subcommand(CLI::App& bench_group);
// bench relay (bench_relay_command.cc).
void add_bench_relay_subcommand(CLI::App& bench_group);
// bench latency (bench_latency_command.cc).
void add_bench_latency_subcommand(CLI::App& bench_group);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_BENCH_COMMAND_H_
