#include "providers/cosmos/cosmos_tenant_rekey_marker.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <utility>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"

namespace docket::cosmos::detail {
namespace {

constexpr std::string_view kMarkerPartitionPath = "/id";
constexpr std::string_view kMarkerTenant = "tenant";
constexpr std::string_view kMarkerStartedAt = "startedAt";
constexpr std::string_view kMarkerStartedBy = "startedBy";
// Removals a concurrent rewrite of the marker (its etag changed) may send again.
constexpr int kRemoveAttempts = 5;

std::string marker_container(const Client& client) {
  return client.url().container(kit::kRekeyMarkerBase);
}

ItemAddress marker_address(const std::string& container) {
  return {
      .container = container, .id = kit::kRekeyMarkerKey, .partition_key = kit::kRekeyMarkerKey};
}

}  // namespace

std::string rekey_marker_where(const Client& client) {
  return "Cosmos DB container '" + marker_container(client) + "'";
}

std::optional<kit::RekeyMarker> read_rekey_marker(const Client& client) {
  const std::string container = marker_container(client);
  const std::optional<ReadItem> item = read_item(client, marker_address(container));
  if (!item) {
    return std::nullopt;  // no container, or no marker in it
  }
  const std::string store = "the tenant re-key's marker in " + rekey_marker_where(client);
  const ItemFields fields(item->body, store);
  return kit::RekeyMarker{
      .tenant = fields.text(kMarkerTenant),
      .started_at = Timestamp(std::chrono::microseconds(fields.integer(kMarkerStartedAt))),
      .started_by = fields.text(kMarkerStartedBy)};
}

void write_rekey_marker(const Client& client, const kit::RekeyMarker& marker) {
  const std::string container = marker_container(client);
  client.ensure_container(container, kMarkerPartitionPath);
  const nlohmann::json item = {
      {"id", kit::kRekeyMarkerKey},
      {std::string(kMarkerTenant), marker.tenant},
      {std::string(kMarkerStartedAt),
       std::chrono::duration_cast<std::chrono::microseconds>(marker.started_at.time_since_epoch())
           .count()},
      {std::string(kMarkerStartedBy), marker.started_by}};
  upsert_item(client, marker_address(container), item);
}

void remove_rekey_marker(const Client& client) {
  const std::string container = marker_container(client);
  for (int attempt = 1; attempt <= kRemoveAttempts; ++attempt) {
    const std::optional<ReadItem> item = read_item(client, marker_address(container));
    if (!item || delete_item(client, marker_address(container), item->etag)) {
      return;
    }
  }
  throw InfrastructureError("the tenant re-key's marker in " + rekey_marker_where(client) +
                            " was rewritten " + std::to_string(kRemoveAttempts) +
                            " times while being removed: is another re-key running? Stop it, "
                            "and run the re-key again");
}

RekeyMarkerProbe::RekeyMarkerProbe(const Client& client, std::string store,
                                   kit::RekeyMarkerCheck check)
    : once_(std::move(store), rekey_marker_where(client), check) {}

void RekeyMarkerProbe::check(const Client& client) {
  once_.check([&] { return read_rekey_marker(client); });
}

}  // namespace docket::cosmos::detail
