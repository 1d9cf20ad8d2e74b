#include "migrate_command.h"

namespace docket::tool {

void add_migrate_command(CLI::App& app) {
  CLI::App* migrate = app.add_subcommand(
      "migrate",
      "Upgrade procedures: re-key records stored under a key shape docket no longer "
      "writes.");
  migrate->require_subcommand(1);
  add_migrate_inbox_ids_subcommand(*migrate);
  add_migrate_scan_subcommand(*migrate);
  add_migrate_tenant_rekey_subcommand(*migrate);
}

}  // namespace docket::tool
