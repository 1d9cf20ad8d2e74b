#include "keys_command.h"

#include <string>

#include "keys_subcommands.h"

namespace docket::tool {

void add_tenant_option(CLI::App& command, std::string& tenant) {
  command
      .add_option("--tenant", tenant,
                  "Tenant id; __default__ for a single-tenant host, __untenanted__ for "
                  "an untenanted deployment")
      ->required();
}

void add_json_flag(CLI::App& command, bool& json, const std::string& what) {
  command.add_flag("--json", json, "Print one JSON object on one line: " + what);
}

void add_keys_command(CLI::App& app) {
  CLI::App* keys_group = app.add_subcommand(
      "keys", "Print the storage keys docket composes, to check what a store will write.");
  keys_group->require_subcommand(1);
  keys_group->footer(
      "Each subcommand prints the key alone on one line (--json: one JSON object) and "
      "exits 0.\nA refused key (over the provider's limit, a term that is not valid UTF-8) "
      "is reported\non stderr with exit status 1; nothing is truncated. See docs/keys.md.");
  add_inbox_key_subcommand(*keys_group);
  add_store_key_subcommands(*keys_group);
  add_legacy_tenant_subcommand(*keys_group);
}

}  // namespace docket::tool
