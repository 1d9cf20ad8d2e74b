// The pieces of `docket keys`, shared between the files that define its subcommands.
#ifndef DOCKET_TOOLS_DOCKET_KEYS_SUBCOMMANDS_H_
#define DOCKET_TOOLS_DOCKET_KEYS_SUBCOMMANDS_H_

#include <CLI/CLI.hpp>
#include <string>

namespace docket::tool {

// keys inbox and keys legacy-tenant (keys_inbox_commands.cc).
void add_inbox_key_subcommand(CLI::App& keys_group);
void add_legacy_tenant_subcommand(CLI::App& keys_group);

// keys stream, keys saga, keys snapshot (keys_store_commands.cc).
void add_store_key_subcommands(CLI::App& keys_group);

// The required --tenant option, with the sentinels explained.
void add_tenant_option(CLI::App& command, std::string& tenant);

// The --json flag every keys subcommand takes; `what` lists the object's fields.
void add_json_flag(CLI::App& command, bool& json,
                   const std::string& what = "key, bytes, limit, provider, field");

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_KEYS_SUBCOMMANDS_H_
