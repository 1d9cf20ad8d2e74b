#include "command_tree.h"

#include <string>

#include "bench_command.h"
#include "chaos_command.h"
#include "dashboard/dashboard_command.h"
#include "demo_command.h"
#include "events_command.h"
#include "health_command.h"
#include "inbox_command.h"
#include "keys_command.h"
#include "metrics_command.h"
#include "migrate_command.h"
#include "outbox_command.h"
#include "projections_command.h"
#include "sagas_command.h"
#include "soak_command.h"

namespace docket::tool {
namespace {

std::string usage_failure_message(const CLI::App* app, const CLI::Error& error) {
  return "docket: " + CLI::FailureMessage::simple(app, error);
}

}  // namespace

std::unique_ptr<CLI::App> make_command_tree() {
  auto app = std::make_unique<CLI::App>(
      "docket: effectively-once messaging for C++.\n"
      "`docket demo` runs an order pipeline through the outbox and the inbox with faults "
      "switched on; `docket keys` shows the storage keys docket composes.",
      "docket");
  app->require_subcommand(1);
  app->failure_message(usage_failure_message);

  add_demo_command(*app);
  add_chaos_command(*app);
  add_keys_command(*app);
  add_inbox_command(*app);
  add_outbox_command(*app);
  add_migrate_command(*app);
  add_events_command(*app);
  add_sagas_command(*app);
  add_projections_command(*app);
  add_health_command(*app);
  add_dashboard_command(*app);
  add_metrics_command(*app);  // adds nothing in a build without docket::prometheus
  add_soak_command(*app);
  add_bench_command(*app);  // adds nothing in a build without the benchmarks
  return app;
}

}  // namespace docket::tool
