// The legacy-key guard of the Cosmos DB event and saga stores (DESIGN.md, Guards): before
// a store acts on silence (a load that came back empty, an append or a version read that
// finds no stream, a saga created or found missing), it checks, once per store instance,
// whether its container holds an item keyed without a tenant segment, the shape of
// releases that stored streams as {aggregateType}:{aggregateId} and sagas as {sagaId}
// (keys/legacy.h). If so, it throws LegacyDataError naming the container and the key,
// and the caller writes nothing. A read that returned items never calls it.
//
// The probe is ONE query over the container, every partition, for the key field (the
// event items' streamId, the saga items' id) outside the range ["t:", "t;") (';' is the
// byte after ':'): every key docket composes for these containers begins "t:", so an
// item outside it was keyed without the tenant segment. A range on one property is
// served by Cosmos DB's default range index. The first item found is confirmed with
// keys::is_legacy_untenanted_*_key; the query reads pages until one item comes back or
// the container is done (a cross-partition query may answer empty pages on the way).
// Its one blind spot is keys/legacy.h's: a legacy key whose raw terms spell a current
// one (a legacy aggregate type "t") sorts inside the range.
//
// When it probes, the kept outcome and the refusal's wording are the kit's
// (kit/legacy_probe.h), shared with the other document providers.
//
// scan() is `docket migrate scan`'s read of the same range to its end, counting every
// legacy key; it writes nothing (a missing container is reported absent, not created).
//
// Thread-safety: check() may be called from many threads at once; one probes while the
// others wait for its outcome.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_LEGACY_GUARD_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_LEGACY_GUARD_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "docket/stores/legacy_scan.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/kit/legacy_probe.h"

namespace docket::cosmos::detail {

enum class LegacyKeyKind { kStream, kSaga };

class LegacyGuard {
 public:
  // `container` holds the event items (kStream) or the saga items (kSaga).
  LegacyGuard(std::string container, LegacyKeyKind kind);

  // Throws LegacyDataError when the container holds a legacy untenanted key (probing on
  // the first call only); what the query throws when it fails (the next call probes).
  // The container exists (the store ensured it).
  void check(const Client& client);

  // Every legacy key of the container: the probe's query, paged to its end.
  LegacyKeyPlace scan(const Client& client, std::size_t max_examples) const;

  // How many probes (queries) this guard has sent.
  int probes() const noexcept { return once_.probes(); }

 private:
  std::optional<std::string> probe(const Client& client) const;
  // The query of the keys outside the tenanted range.
  Query outside_query() const;
  bool is_legacy(std::string_view key) const;

  std::string container_;
  LegacyKeyKind kind_;
  kit::LegacyProbeOnce once_;
};

// Every legacy key of the event and saga containers of `url` (docket/stores/legacy_scan.h),
// the provider's ProviderRegistration::legacy_scan. Throws ConfigurationError for a URL
// parse_store_url refuses, and what the queries throw.
LegacyScan scan_legacy_containers(std::string_view url, std::size_t max_examples);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_LEGACY_GUARD_H_
