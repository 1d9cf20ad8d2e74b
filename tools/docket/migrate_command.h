// `docket migrate ...`: the specifications' upgrade procedures as commands. Each one
// asks for what only the operator knows (which tenant a legacy record belongs to) and
// refuses to guess: `migrate inbox-ids` re-keys Firestore or Elasticsearch inbox entries
// from the legacy '_'-joined id to the current one, offline from an export or online on
// the store; `migrate scan` counts the records a store holds under a legacy key shape,
// with examples; `migrate tenant-rekey` re-keys untenanted event streams and sagas
// under the tenant the operator names.
#ifndef DOCKET_TOOLS_DOCKET_MIGRATE_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_MIGRATE_COMMAND_H_

#include <CLI/CLI.hpp>
#include <string>

namespace docket::tool {

// Adds the `migrate` command group and its subcommands to `app`.
void add_migrate_command(CLI::App& app);

// migrate inbox-ids (migrate_inbox_ids_command.cc).
void add_migrate_inbox_ids_subcommand(CLI::App& migrate_group);
// The online form of migrate inbox-ids, on the store `store` (migrate_inbox_ids_store.cc).
void run_migrate_inbox_ids_online(const std::string& store, bool dry_run);
// migrate scan (migrate_scan_command.cc).
void add_migrate_scan_subcommand(CLI::App& migrate_group);
// migrate tenant-rekey (migrate_tenant_rekey_command.cc).
void add_migrate_tenant_rekey_subcommand(CLI::App& migrate_group);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_MIGRATE_COMMAND_H_
