// docket keys stream | saga | snapshot: the event-sourcing and saga store keys.
#include <cstdint>
#include <memory>
#include <string>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "key_output.h"
#include "keys_subcommands.h"
#include "provider_option.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

using keys::Provider;

constexpr const char* kStoreProviders = "cosmos dynamodb firestore mongodb";

// Options the stream-shaped subcommands (stream, snapshot) take. Owned by the
// subcommand's callback, which outlives parsing.
struct StreamOptions {
  std::string provider;
  std::string tenant;
  std::string aggregate_type;
  std::string aggregate_id;
  std::int64_t version = 0;
  bool json = false;

  keys::StreamTerms terms() const { return {tenant, aggregate_type, aggregate_id}; }
};

// --provider, --tenant, --aggregate-type, --aggregate-id.
void add_stream_terms(CLI::App& command, StreamOptions& options) {
  add_provider_option(command, options.provider, kStoreProviders);
  add_tenant_option(command, options.tenant);
  command.add_option("--aggregate-type", options.aggregate_type, "Aggregate type, e.g. Order")
      ->required();
  command.add_option("--aggregate-id", options.aggregate_id, "Aggregate id, e.g. A-1001")
      ->required();
}

// Why --version cannot be part of a stream key on a provider whose stream key is
// shared by every event of the stream.
std::string where_version_lives(Provider provider) {
  switch (provider) {
    case Provider::kCosmosDb:
      return "every event of a stream is an item in the partition named by the stream key; "
             "the version is a field of each event item";
    case Provider::kDynamoDb:
      return "the stream key is the partition key; the version is each event's sort key";
    case Provider::kMongoDb:
      return "every event document carries the stream key in its streamId field; the "
             "version is a field of each event document";
    default:
      return "the version is not part of any key on this provider";
  }
}

void add_stream(CLI::App& keys_group) {
  CLI::App* command =
      keys_group.add_subcommand("stream", "Event stream key of a tenant's aggregate");
  command->footer(
      "Where a tenant's events for one aggregate are stored: each tenant has its own\n"
      "stream and version sequence for an aggregate id. Prints the key alone on one line.\n"
      "Shapes (terms escaped per provider; see docs/keys.md):\n"
      "  cosmos    streamId, the partition key  t:{tenant}:{aggregateType}:{aggregateId}\n"
      "  dynamodb  partition key                t:{tenant}:{aggregateType}:{aggregateId}\n"
      "  mongodb   streamId                     t:{tenant}:{aggregateId}\n"
      "  firestore event document id            t:{tenant}:{aggregateType}:{aggregateId}:"
      "{version}\n"
      "Firestore stores each event as its own document and needs --version; the other\n"
      "providers keep the version outside the key and refuse it.");
  auto options = std::make_shared<StreamOptions>();
  add_stream_terms(*command, *options);
  CLI::Option* version = command
                             ->add_option("--version", options->version,
                                          "Event version (Firestore only: part of the document id)")
                             ->check(whole_number());
  add_json_flag(*command, options->json, "key, bytes, limit, provider, field (and version)");
  command->callback([options, version] {
    const Provider provider = provider_named(options->provider);
    const bool has_version = version->count() > 0;
    if (has_version && options->version < 0) {
      throw UsageError("--version is " + std::to_string(options->version) +
                       "; event versions start at 0 (a stream's first event)");
    }
    if (provider == Provider::kFirestore) {
      if (!has_version) {
        throw UsageError(
            "Firestore stores each event as its own document, whose id ends with the "
            "event's version: pass --version N (0 for a stream's first event)");
      }
      print_key(keys::compose_event_document_id(provider, options->terms(), options->version),
                options->json, {{"version", options->version}});
      return;
    }
    // Composed first so that a provider without the shape, or a refused term, is
    // reported by the library before the version is looked at.
    const keys::Key key = keys::compose_stream_key(provider, options->terms());
    if (has_version) {
      throw UsageError("--version is not part of the " +
                       std::string(keys::provider_display_name(provider)) + " stream key: " +
                       where_version_lives(provider) + ". Drop --version to print the stream key.");
    }
    print_key(key, options->json);
  });
}

void add_snapshot(CLI::App& keys_group) {
  CLI::App* command = keys_group.add_subcommand("snapshot", "Snapshot key of a tenant's aggregate");
  command->footer(
      "Where the latest snapshot of a tenant's aggregate is stored. Prints the key alone\n"
      "on one line.\n"
      "Shapes (terms escaped per provider; see docs/keys.md):\n"
      "  cosmos    item id, also partition key  t:{tenant}:{aggregateType}:{aggregateId}\n"
      "  dynamodb  partition key                SNAPSHOT#t:{tenant}:{aggregateType}:"
      "{aggregateId}\n"
      "  mongodb   _id                          t:{tenant}:{aggregateType}:{aggregateId}\n"
      "  firestore document id                  t:{tenant}:{aggregateType}:{aggregateId}");
  auto options = std::make_shared<StreamOptions>();
  add_stream_terms(*command, *options);
  add_json_flag(*command, options->json);
  command->callback([options] {
    print_key(keys::compose_snapshot_key(provider_named(options->provider), options->terms()),
              options->json);
  });
}

struct SagaOptions {
  std::string provider;
  std::string tenant;
  std::string saga_id;
  std::string saga_type;
  bool json = false;
};

void add_saga(CLI::App& keys_group) {
  CLI::App* command = keys_group.add_subcommand("saga", "Saga key of a tenant's saga instance");
  command->footer(
      "Where a tenant's saga instance (its state and version) is stored. Prints the key\n"
      "alone on one line.\n"
      "Shapes (terms escaped per provider; see docs/keys.md):\n"
      "  cosmos    item id        t:{tenant}:{sagaId}       partition key: the saga type\n"
      "  dynamodb  partition key  SAGA#t:{tenant}:{sagaId}  sort key: the saga type\n"
      "  mongodb   _id            t:{tenant}:{sagaId}\n"
      "  firestore document id    t:{tenant}:{sagaId}_{sagaType}");
  auto options = std::make_shared<SagaOptions>();
  add_provider_option(*command, options->provider, kStoreProviders);
  add_tenant_option(*command, options->tenant);
  command->add_option("--saga-id", options->saga_id, "Saga id (correlation id)")->required();
  command->add_option("--saga-type", options->saga_type, "Saga type, e.g. OrderSaga")->required();
  add_json_flag(*command, options->json,
                "key, bytes, limit, provider, field; on cosmos and dynamodb also the saga type "
                "key (saga_type_key, saga_type_bytes, saga_type_limit, saga_type_field)");
  command->callback([options] {
    const Provider provider = provider_named(options->provider);
    const keys::SagaTerms terms{options->tenant, options->saga_type, options->saga_id};
    const keys::Key key = keys::compose_saga_key(provider, terms);
    nlohmann::json extra = nlohmann::json::object();
    // Composed in both output modes: a saga type the provider refuses (too long for
    // the sort key) refuses the command, not just its JSON.
    if (provider == Provider::kCosmosDb || provider == Provider::kDynamoDb) {
      const keys::Key type_key = keys::compose_saga_type_key(provider, terms);
      extra = {
          {"saga_type_key", type_key.value},
          {"saga_type_bytes", type_key.size_bytes()},
          {"saga_type_limit", type_key.limit_bytes},
          {"saga_type_field", std::string(type_key.field)},
      };
    }
    print_key(key, options->json, extra);
  });
}

}  // namespace

void add_store_key_subcommands(CLI::App& keys_group) {
  add_stream(keys_group);
  add_saga(keys_group);
  add_snapshot(keys_group);
}

}  // namespace docket::tool
