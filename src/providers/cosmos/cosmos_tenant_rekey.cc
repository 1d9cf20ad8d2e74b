// The Cosmos DB re-key target's reads, moves, marker and verification listings
// (cosmos_tenant_rekey.h); its writes are cosmos_tenant_rekey_commit.cc.
#include "providers/cosmos/cosmos_tenant_rekey.h"

#include <cstdint>
#include <set>
#include <utility>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/keys/legacy.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_event_store.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/cosmos_saga_store.h"
#include "providers/cosmos/cosmos_tenant_rekey_marker.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/kit/tenant_rekey_procedure.h"

namespace docket::cosmos::detail {
namespace {

// Every key docket composes for these containers begins "t:"; ';' follows ':'.
constexpr std::string_view kRekeyTenantedFrom = "t:";
constexpr std::string_view kRekeyTenantedUntil = "t;";
// Items a query of the re-key reads a page.
constexpr std::size_t kRekeyPageItems = 1000;
// The system properties the service adds to every item.
constexpr std::string_view kSystemProperties[] = {"_rid", "_self", "_etag", "_attachments", "_ts"};

// The range [from, until) of the keys under one tenant: `composed` is a key of the tenant
// ("t:{tenant}:..."), cut after its tenant segment (an escaped tenant holds no ':').
std::pair<std::string, std::string> tenant_range_of(const std::string& composed) {
  const std::size_t end = composed.find(':', kRekeyTenantedFrom.size());
  std::string from = composed.substr(0, end + 1);
  std::string until = from;
  until.back() = ';';
  return {std::move(from), std::move(until)};
}

std::pair<std::string, std::string> stream_range(const TenantId& tenant) {
  return tenant_range_of(
      keys::compose_stream_key(keys::Provider::kCosmosDb, {tenant.value(), "a", "a"}).value);
}

std::pair<std::string, std::string> saga_range(const TenantId& tenant) {
  return tenant_range_of(
      keys::compose_saga_key(keys::Provider::kCosmosDb, {tenant.value(), "a", "a"}).value);
}

std::string key_field(kit::RekeyKind kind) {
  return kind == kit::RekeyKind::kEvent ? std::string(event::kStreamField) : std::string("id");
}

}  // namespace

CosmosRekeyTarget::CosmosRekeyTarget(std::string_view url)
    : url_(url),
      client_(parse_store_url(url)),
      events_(client_.url().container(event::kContainer)),
      sagas_(client_.url().container(saga::kContainer)) {}

nlohmann::json CosmosRekeyTarget::written_content(nlohmann::json item) {
  for (const std::string_view property : kSystemProperties) {
    item.erase(std::string(property));
  }
  return item;
}

const std::string& CosmosRekeyTarget::container(kit::RekeyKind kind) const {
  return kind == kit::RekeyKind::kEvent ? events_ : sagas_;
}

std::string CosmosRekeyTarget::where(kit::RekeyKind kind) const {
  return "Cosmos DB container '" + container(kind) + "'";
}

std::size_t CosmosRekeyTarget::weight_per_write() const {
  return kMaxBatchBytes;
}

bool CosmosRekeyTarget::container_exists(kit::RekeyKind kind) const {
  const std::string link = client_.container_link(container(kind));
  const std::string what = "read of container '" + container(kind) + "'";
  const Request read{.what = what,
                     .method = "GET",
                     .resource_type = "colls",
                     .resource_link = link,
                     .path = "/" + link,
                     .replay = Replay::kSafe};
  const Response response = client_.send(read);
  if (response.status != 200 && response.status != 404) {
    client_.fail(read, response);
  }
  return response.status == 200;
}

std::vector<std::string> CosmosRekeyTarget::keys_in(kit::RekeyKind kind, const std::string& from,
                                                    const std::string& until,
                                                    std::size_t limit) const {
  std::vector<std::string> found;
  if (!container_exists(kind)) {
    return found;
  }
  const std::string field = key_field(kind);
  const Query query{
      .container = container(kind),
      .sql = "SELECT VALUE c." + field + " FROM c WHERE c." + field + " >= @from AND c." + field +
             " < @until",
      .parameters = {{{"name", "@from"}, {"value", from}}, {{"name", "@until"}, {"value", until}}}};
  for (nlohmann::json& key : query_items(client_, query, limit == 0 ? SIZE_MAX : limit)) {
    if (key.is_string()) {
      found.push_back(key.get<std::string>());
    }
  }
  return found;
}

bool CosmosRekeyTarget::holds_tenant(const TenantId& tenant) const {
  const auto [streams_from, streams_until] = stream_range(tenant);
  const auto [sagas_from, sagas_until] = saga_range(tenant);
  return !keys_in(kit::RekeyKind::kEvent, streams_from, streams_until, 1).empty() ||
         !keys_in(kit::RekeyKind::kSaga, sagas_from, sagas_until, 1).empty();
}

kit::LegacyRecord CosmosRekeyTarget::legacy_record(kit::RekeyKind kind, nlohmann::json item) const {
  const std::string store = "the tenant re-key of " + where(kind);
  const ItemFields fields(item, store);
  kit::LegacyRecord record;
  record.kind = kind;
  record.key = fields.text(key_field(kind));
  record.stream = record.key;  // a stream's events share its key
  record.tenant_field = fields.optional_text("tenant");
  record.revision = fields.text("_etag");
  if (kind == kit::RekeyKind::kEvent) {
    record.fields = {.type = fields.optional_text("aggregateType"),
                     .id = fields.optional_text("aggregateId")};
    record.version = fields.integer("version");
    record.event_id = fields.text("eventId");
  } else {
    const SagaRecord saga = saga::saga_record_of(item, store);
    record.sort_key = fields.text("sagaType");
    record.fields = {.type = std::nullopt, .id = fields.optional_text("sagaId")};
    record.version = saga.version;
    record.state = saga.state;
  }
  record.document = written_content(std::move(item));
  return record;
}

std::vector<kit::LegacyRecord> CosmosRekeyTarget::legacy_records(kit::RekeyKind kind) const {
  std::vector<kit::LegacyRecord> records;
  if (!container_exists(kind)) {
    return records;
  }
  const std::string field = key_field(kind);
  const Query query{
      .container = container(kind),
      .sql = "SELECT * FROM c WHERE c." + field + " < @from OR c." + field + " >= @until",
      .parameters = {{{"name", "@from"}, {"value", kRekeyTenantedFrom}},
                     {{"name", "@until"}, {"value", kRekeyTenantedUntil}}}};
  std::string continuation;
  do {
    QueryPage page = query_page(client_, query, kRekeyPageItems, continuation);
    for (nlohmann::json& item : page.items) {
      const auto key = item.find(field);
      if (key == item.end() || !key->is_string()) {
        continue;  // keyed as no store of docket keys: the guard's concern, not a record
      }
      const std::string& text = key->get_ref<const std::string&>();
      const bool legacy =
          kind == kit::RekeyKind::kEvent
              ? keys::is_legacy_untenanted_stream_key(keys::Provider::kCosmosDb, text)
              : keys::is_legacy_untenanted_saga_key(keys::Provider::kCosmosDb, text);
      if (legacy) {
        records.push_back(legacy_record(kind, std::move(item)));
      }
    }
    continuation = std::move(page.continuation);
  } while (!continuation.empty());
  return records;
}

kit::RekeyMove CosmosRekeyTarget::event_move(const kit::LegacyRecord& record,
                                             const StreamId& stream) const {
  const std::string key = event::stream_key(stream);
  nlohmann::json item = record.document;
  item[std::string(event::kStreamField)] = key;
  item["tenant"] = stream.tenant().value();
  item["aggregateType"] = stream.aggregate_type();
  item["aggregateId"] = stream.aggregate_id();
  check_item_size(item, "the tenant re-key of " + where(record.kind));
  const std::size_t weight = item.dump().size();
  return kit::RekeyMove{
      .record = &record, .new_key = key, .new_document = std::move(item), .weight = weight};
}

kit::RekeyMove CosmosRekeyTarget::saga_move(const kit::LegacyRecord& record,
                                            const SagaId& saga) const {
  const saga::SagaAddress address = saga::saga_address(saga);
  nlohmann::json item = record.document;
  item["id"] = address.id;
  item["tenant"] = saga.tenant().value();
  item["sagaId"] = saga.saga_id();
  item["listKey"] = saga::list_key(saga);
  check_item_size(item, "the tenant re-key of " + where(record.kind));
  const std::size_t weight = item.dump().size();
  return kit::RekeyMove{
      .record = &record, .new_key = address.id, .new_document = std::move(item), .weight = weight};
}

std::string CosmosRekeyTarget::marker_where() const {
  return rekey_marker_where(client_);
}

std::optional<kit::RekeyMarker> CosmosRekeyTarget::read_marker() const {
  return read_rekey_marker(client_);
}

void CosmosRekeyTarget::write_marker(const kit::RekeyMarker& marker) const {
  write_rekey_marker(client_, marker);
}

void CosmosRekeyTarget::remove_marker() const {
  remove_rekey_marker(client_);
}

std::vector<StreamId> CosmosRekeyTarget::tenant_streams(const TenantId& tenant) const {
  const auto [from, until] = stream_range(tenant);
  std::set<std::string> seen;  // an item per event: each stream once
  std::vector<StreamId> streams;
  for (const std::string& key : keys_in(kit::RekeyKind::kEvent, from, until, 0)) {
    if (!seen.insert(key).second) {
      continue;
    }
    if (const auto terms = keys::parse_stream_key(keys::Provider::kCosmosDb, key)) {
      streams.emplace_back(tenant, terms->aggregate_type, terms->aggregate_id);
    }
  }
  return streams;
}

std::vector<SagaId> CosmosRekeyTarget::tenant_sagas(const TenantId& tenant) const {
  std::vector<SagaId> sagas;
  if (!container_exists(kit::RekeyKind::kSaga)) {
    return sagas;
  }
  const auto [from, until] = saga_range(tenant);
  const Query query{
      .container = sagas_,
      .sql = "SELECT c.id, c.sagaType FROM c WHERE c.id >= @from AND c.id < @until",
      .parameters = {{{"name", "@from"}, {"value", from}}, {{"name", "@until"}, {"value", until}}}};
  const std::string store = "the tenant re-key's verification of " + where(kit::RekeyKind::kSaga);
  std::string continuation;
  do {
    QueryPage page = query_page(client_, query, kRekeyPageItems, continuation);
    for (const nlohmann::json& item : page.items) {
      const ItemFields fields(item, store);
      if (const auto terms = keys::parse_saga_key(keys::Provider::kCosmosDb, fields.text("id"))) {
        sagas.emplace_back(tenant, fields.text("sagaType"), terms->saga_id);
      }
    }
    continuation = std::move(page.continuation);
  } while (!continuation.empty());
  return sagas;
}

std::unique_ptr<EventStore> CosmosRekeyTarget::verifying_event_store() const {
  return std::make_unique<CosmosEventStore>(url_, SystemClock::instance(),
                                            kit::RekeyMarkerCheck::kSkip);
}

std::unique_ptr<SagaStore> CosmosRekeyTarget::verifying_saga_store() const {
  return std::make_unique<CosmosSagaStore>(url_, SystemClock::instance(),
                                           kit::RekeyMarkerCheck::kSkip);
}

TenantRekeyReport rekey_legacy_containers(std::string_view url, const TenantRekeyOptions& options) {
  const CosmosRekeyTarget target(url);
  TenantRekeyReport report = kit::run_tenant_rekey(target, options);
  report.provider = "cosmos";
  return report;
}

}  // namespace docket::cosmos::detail
