// The tenant re-key's marker (kit/tenant_rekey_marker.h) on Cosmos DB, and the probe for
// it that the event and saga stores run before their first operation.
//
// The marker is one item, id "tenant-rekey", in a container of its own,
// {prefix}docket_tenant_rekey (partition key /id), outside the event and saga containers
// every store reads: fields tenant, startedAt (Unix microseconds) and startedBy. The
// re-key creates the container when it first writes the marker; a store that finds no
// container (or no item) finds no marker, and creates nothing.
//
// Thread-safety: the functions are safe over a thread-safe Client; RekeyMarkerProbe::check
// may be called from many threads at once (kit::RekeyMarkerOnce).
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_TENANT_REKEY_MARKER_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_TENANT_REKEY_MARKER_H_

#include <optional>
#include <string>

#include "providers/cosmos/cosmos_client.h"
#include "providers/kit/tenant_rekey_marker.h"

namespace docket::cosmos::detail {

// "Cosmos DB container '{prefix}docket_tenant_rekey'", for messages.
std::string rekey_marker_where(const Client& client);

// The marker, nullopt when there is none (or no container). One point read.
std::optional<kit::RekeyMarker> read_rekey_marker(const Client& client);
// Writes the marker (an upsert), the container created where needed.
void write_rekey_marker(const Client& client, const kit::RekeyMarker& marker);
// Removes the marker; nothing to do when there is none.
void remove_rekey_marker(const Client& client);

// The marker's probe an event or saga store runs before its first operation (once per
// instance, kit::RekeyMarkerOnce).
class RekeyMarkerProbe {
 public:
  // `store` names the store for the refusal.
  RekeyMarkerProbe(const Client& client, std::string store, kit::RekeyMarkerCheck check);

  // Throws LegacyDataError while a re-key's marker is in place.
  void check(const Client& client);
  int probes() const noexcept { return once_.probes(); }

 private:
  kit::RekeyMarkerOnce once_;
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_TENANT_REKEY_MARKER_H_
