// The tenant re-key on Firestore (docket/stores/tenant_rekey.h): the kit's procedure
// (kit/tenant_rekey_procedure.h) over the event and saga collections of a URL.
//
//   legacy records   the guard's query for ids outside the tenanted range, every page,
//                    confirmed by keys::is_legacy_untenanted_*_key
//   terms            a document's own aggregateType / aggregateId (sagaType / sagaId)
//                    fields, when it carries them, name the split of its id
//                    (keys/legacy_split.h)
//   known tenant     a query of each collection for one id in the tenant's range
//                    (keys/tenant_prefix.h)
//   new documents    the legacy fields, with the tenant and the stream's (saga's) terms
//                    set as the stores write and query them
//   one atomic write one commit of at most 500 writes (250 moves) and under its 10 MiB:
//                    each new document created (exists: false), each old one deleted
//                    where unchanged since read (its updateTime)
//
// Thread-safety: a free function; it opens its own client.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_TENANT_REKEY_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_TENANT_REKEY_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/stores/tenant_rekey.h"
#include "providers/firestore/firestore_client.h"
#include "providers/kit/tenant_rekey_marker.h"

namespace docket::firestore::detail {

// The re-key's marker (kit/tenant_rekey_marker.h) on Firestore: the document
// "tenant-rekey" of the collection {prefix}docket_tenant_rekey, with its tenant,
// startedAt and startedBy. Read with one get; a missing document is no marker.
std::string rekey_marker_collection(const Client& client);
std::optional<kit::RekeyMarker> read_rekey_marker(const Client& client);

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

// The provider's ProviderRegistration::rekey_tenant. Throws ConfigurationError for a
// URL parse_store_url refuses, and what the procedure throws.
TenantRekeyReport rekey_legacy_collections(std::string_view url, const TenantRekeyOptions& options);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_TENANT_REKEY_H_
