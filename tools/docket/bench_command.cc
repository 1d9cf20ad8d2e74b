#include "bench_command.h"

namespace docket::tool {

void add_bench_command(CLI::App& app) {
  CLI::App* bench_group = app.add_subcommand(
      "bench", "Measure docket against the raw limit of the same work, in one run.");
  bench_group->require_subcommand(1);
  bench_group->footer(
      "Each benchmark runs docket's public API and the same statements issued directly\n"
      "through the database's C API (bench keys: a copy of the same key bytes),\n"
      "alternating in segments, and prints both rates and their ratio (--json: one JSON\n"
      "object). Exit status 3 when the run's consistency checks fail. See\n"
      "docs/benchmarks.md.");
  add_bench_inbox_subcommand(*bench_group);
  add_bench_events_subcommand(*bench_group);
  add_bench_outbox_subcommand(*bench_group);
  add_bench_claim_subcommand(*bench_group);
  add_bench_keys_subcommand(*bench_group);
  add_bench_relay_subcommand(*bench_group);
  add_bench_latency_subcommand(*bench_group);
}

}  // namespace docket::tool
