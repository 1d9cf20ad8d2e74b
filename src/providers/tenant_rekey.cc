// rekey_tenant (docket/stores/tenant_rekey.h): the tenant is checked before the store is
// opened, the provider's hook moves the records (the kit's procedure), and every
// stream and saga it moved is then loaded through the stores themselves, guard
// included, under the tenant-keyed shape.
#include "docket/stores/tenant_rekey.h"

#include <string>

#include "docket/core/error.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/sagas/saga_store.h"
#include "docket/stores/open_store.h"
#include "providers/registry.h"

namespace docket {
namespace {

[[noreturn]] void verification_failed(const std::string& what, const std::string& found) {
  throw InfrastructureError("the re-key moved " + what + ", but loading it under the new key " +
                            found +
                            ". Stop every writer, compare with `docket events show` / `docket "
                            "sagas show`, and run the re-key again");
}

void verify_stream(EventStore& store, const TenantId& tenant, const RekeyedStream& moved) {
  const StreamId stream(tenant, moved.aggregate_type, moved.aggregate_id);
  const std::vector<RecordedEvent> loaded = store.load(stream);
  const std::string what = "stream " + moved.aggregate_type + " / " + moved.aggregate_id;
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    if (loaded[i].version != static_cast<std::int64_t>(i)) {
      verification_failed(what, "found version " + std::to_string(loaded[i].version) +
                                    " where version " + std::to_string(i) + " belongs");
    }
  }
  const std::int64_t last = moved.events.back().version;
  if (loaded.empty() || loaded.back().version != last) {
    verification_failed(what, "found " + std::to_string(loaded.size()) +
                                  " events, not the export's last version " + std::to_string(last));
  }
  for (const RekeyedEvent& event : moved.events) {
    const RecordedEvent& found = loaded[static_cast<std::size_t>(event.version)];
    if (found.event_id.to_string() != event.event_id) {
      verification_failed(what, "found event " + found.event_id.to_string() + " at version " +
                                    std::to_string(event.version) + ", not the exported " +
                                    event.event_id);
    }
  }
}

void verify_saga(SagaStore& store, const TenantId& tenant, const RekeyedSaga& moved) {
  const std::optional<SagaRecord> loaded =
      store.load(SagaId(tenant, moved.saga_type, moved.saga_id));
  const std::string what = "saga " + moved.saga_type + " / " + moved.saga_id;
  if (!loaded) {
    verification_failed(what, "found nothing");
  }
  if (loaded->version != moved.version || loaded->state != moved.state) {
    verification_failed(what, "found version " + std::to_string(loaded->version) +
                                  (loaded->state == moved.state ? "" : " and another state") +
                                  ", not the exported version " + std::to_string(moved.version));
  }
}

}  // namespace

TenantRekeyReport rekey_tenant(std::string_view url, const TenantRekeyOptions& options) {
  // Refused before anything is opened: a blank or malformed tenant.
  const TenantId tenant = TenantId::from_stored(options.tenant);
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "tenant re-key");
  if (provider.rekey_tenant == nullptr) {
    std::string offered;
    for (const providers::ProviderRegistration* other :
         providers::Registry::builtin().providers()) {
      if (other->rekey_tenant != nullptr) {
        offered += (offered.empty() ? "" : ", ") + std::string(other->name);
      }
    }
    throw ConfigurationError(
        "the " + std::string(provider.name) +
        " provider never stored event or saga records under an untenanted key (it keys "
        "them by columns, the tenant among them): there is nothing to re-key. The re-key is "
        "for the stores of providers that did (in this build: " +
        (offered.empty() ? std::string("none") : offered) + ")");
  }
  TenantRekeyReport report = provider.rekey_tenant(url, options);
  if (options.dry_run) {
    return report;
  }
  // Fresh stores: their guard probes again, and must find nothing now.
  if (!report.moved_streams.empty()) {
    const std::unique_ptr<EventStore> events = open_event_store(url);
    for (const RekeyedStream& stream : report.moved_streams) {
      verify_stream(*events, tenant, stream);
      ++report.streams_verified;
    }
  }
  if (!report.moved_sagas.empty()) {
    const std::unique_ptr<SagaStore> sagas = open_saga_store(url);
    for (const RekeyedSaga& saga : report.moved_sagas) {
      verify_saga(*sagas, tenant, saga);
      ++report.sagas_verified;
    }
  }
  return report;
}

}  // namespace docket
