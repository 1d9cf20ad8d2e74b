// `docket sagas show`: one saga's record, read through the store itself, so that
// what an operator sees is what the application would load, the legacy-key guard
// included: while documents of an earlier release's untenanted shape remain, the command
// fails (exit 1) with the guard's message, before a re-key and never after it.
// `docket sagas list`: the sagas of a store, filtered, through SagaStore::list(); the
// listing itself (list_sagas) and a saga's JSON are shared with `docket dashboard`.
//
// Thread-safety: the command's own thread; list_sagas, the store's own.
#ifndef DOCKET_TOOLS_DOCKET_SAGAS_COMMAND_H_
#define DOCKET_TOOLS_DOCKET_SAGAS_COMMAND_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "docket/sagas/saga_store.h"

namespace docket::tool {

// Adds the `sagas` command group and its `show` subcommand (sagas_show_command.cc).
void add_sagas_command(CLI::App& app);

// Adds `list` to the `sagas` group (sagas_list_command.cc).
void add_sagas_list_subcommand(CLI::App& sagas_group);

// The sagas `request` matches, at most `limit`, read a page at a time; `more` when at
// least one more matches. request.limit and request.after are the listing's own.
struct SagaListing {
  std::vector<SagaSummary> sagas;
  bool more = false;
};
SagaListing list_sagas(SagaStore& store, SagaListRequest request, std::uint64_t limit);

// A saga as `sagas list --json` prints it: tenant, saga_type, saga_id, version, status,
// started_at, updated_at, completed_at.
nlohmann::json saga_summary_json(const SagaSummary& summary);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_SAGAS_COMMAND_H_
