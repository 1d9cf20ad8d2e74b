// docket sagas show: one saga's record, loaded through the saga store (guard included).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "docket/sagas/saga_id.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "sagas_command.h"
#include "stored_bytes.h"

namespace docket::tool {
namespace {

struct SagasShowArgs {
  std::string store;
  std::string tenant;
  std::string saga_type;
  std::string saga_id;
  bool json = false;
};

const char* status_name(SagaStatus status) {
  return status == SagaStatus::kCompleted ? "completed" : "active";
}

// The record as a JSON object, its state embedded as stored (stored_bytes.h).
std::string record_json(const SagaRecord& record) {
  JsonObjectText out;
  out.add("version", record.version)
      .add("status", status_name(record.status))
      .add("started_at", format_timestamp(record.started_at))
      .add("updated_at", format_timestamp(record.updated_at))
      .add("completed_at", record.completed_at
                               ? nlohmann::json(format_timestamp(*record.completed_at))
                               : nlohmann::json(nullptr));
  put_bytes(out, "state", record.state);
  return out.text();
}

void print_saga(const SagaId& saga, const std::optional<SagaRecord>& record,
                const std::string& store) {
  std::cout << "saga       " << saga.describe() << '\n' << "store      " << store << '\n';
  if (!record) {
    std::cout << "record     (none)\n";
    return;
  }
  std::cout << "version    " << record->version << '\n'
            << "status     " << status_name(record->status) << '\n'
            << "started    " << format_timestamp(record->started_at) << '\n'
            << "updated    " << format_timestamp(record->updated_at) << '\n'
            << "completed  "
            << (record->completed_at ? format_timestamp(*record->completed_at) : "-") << '\n'
            << "state      " << printable_bytes(record->state) << '\n';
}

void run_sagas_show(const SagasShowArgs& args) {
  // The terms are checked before the store is opened: a refused one sends nothing.
  const SagaId saga(TenantId(args.tenant), args.saga_type, args.saga_id);
  const auto store = open_saga_store(args.store);
  const std::optional<SagaRecord> record = store->load(saga);
  const std::string printable = printable_store_url(args.store);
  if (!args.json) {
    print_saga(saga, record, printable);
    return;
  }
  std::cout << JsonObjectText()
                   .add("store", printable)
                   .add("tenant", saga.tenant().value())
                   .add("saga_type", saga.saga_type())
                   .add("saga_id", saga.saga_id())
                   .add_verbatim("saga", record ? record_json(*record) : "null")
                   .text()
            << '\n';
}

}  // namespace

void add_sagas_command(CLI::App& app) {
  CLI::App* sagas = app.add_subcommand(
      "sagas",
      "Inspect a saga store: list sagas by status, type, tenant and age, or show one saga's "
      "state and version, as the application loads it");
  sagas->require_subcommand(1);
  auto args = std::make_shared<SagasShowArgs>();
  CLI::App* show = sagas->add_subcommand(
      "show",
      "One saga's version, status, times and state, loaded through the saga store (its "
      "legacy-key guard included: exit 1 with its message while untenanted documents remain)");
  show->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  show->add_option("--tenant", args->tenant, "The saga's tenant")->required();
  show->add_option("--saga-type", args->saga_type, "The saga's type")->required();
  show->add_option("--saga-id", args->saga_id, "The saga's id")->required();
  show->add_flag("--json", args->json, "Print one JSON object");
  show->callback([args] { run_sagas_show(*args); });
  add_sagas_list_subcommand(*sagas);
}

}  // namespace docket::tool
