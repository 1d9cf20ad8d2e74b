// The legacy-key guard of a Firestore store (DESIGN.md, Guards), on the event and saga
// stores: before the store acts on silence (a load that came back empty, an append or
// a version read that finds no stream, a saga created or found missing), it checks,
// once per store instance, whether its collection holds a document whose id has no
// tenant segment (the shape of releases that stored events and sagas without one,
// keys/legacy.h). If so, it throws LegacyDataError naming the collection and the id,
// and the caller writes nothing. A read that returned documents never calls it.
//
// The check is ONE runQuery of at most one document, with no index beyond the
// built-in one on __name__: every id docket composes for these collections begins
// "t:", so a document outside the range [.../t:, .../t;) of reference values (';' is
// the byte after ':') has an id without the tenant segment. The query asks for
// `__name__ < t: OR __name__ >= t;`, limit 1, and confirms what it finds with
// keys::is_legacy_untenanted_*_key. Unlike DynamoDB's Scan page this is a range read
// over the whole collection: it cannot miss a legacy document however many tenanted
// ones there are. Its one blind spot is the one keys/legacy.h names: a legacy id whose
// raw terms spell a current one (a legacy aggregate type "t") sorts inside the range.
//
// When it probes, the kept outcome and the refusal's wording are the kit's
// (kit/legacy_probe.h), shared with the other document providers.
//
// Thread-safety: check() may be called from many threads at once; one probes while the
// others wait for its outcome.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_LEGACY_GUARD_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_LEGACY_GUARD_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "providers/firestore/firestore_client.h"
#include "providers/kit/legacy_probe.h"

namespace docket::firestore::detail {

enum class LegacyKeyKind { kStream, kSaga };

class LegacyGuard {
 public:
  // `collection` holds the event documents (kStream) or the saga documents (kSaga).
  LegacyGuard(std::string collection, LegacyKeyKind kind);

  // Throws LegacyDataError when the collection holds a legacy untenanted id (probing on
  // the first call only); what the query throws when it fails (the next call probes).
  void check(const Client& client);

  // Every legacy id of the collection: the probe's query, paged to its end (a read of
  // every document outside the tenanted range, for `docket migrate scan`).
  LegacyKeyPlace scan(const Client& client, std::size_t max_examples) const;

  // How many probes (queries) this guard has sent.
  int probes() const noexcept { return once_.probes(); }

  // Ids outside the tenanted range (the probe's filter, also the tenant re-key's), and
  // whether one is legacy.
  nlohmann::json outside_filter(const Client& client) const;
  bool is_legacy(std::string_view id) const;

 private:
  std::optional<std::string> probe(const Client& client) const;

  std::string collection_;
  LegacyKeyKind kind_;
  kit::LegacyProbeOnce once_;
};

// The stream part of a legacy event document id {aggregateType}:{aggregateId}:{version}:
// the id without its last ":{digits}" (the id itself when it has none). The documents
// of one stream share it, so a stream is named once however many events it holds.
std::string_view legacy_stream_of(std::string_view id);

// Every legacy id of the event and saga collections of `url`, and every inbox entry not
// under its current id (firestore_inbox_migration.h) (docket/stores/legacy_scan.h), the
// provider's ProviderRegistration::legacy_scan. Throws ConfigurationError for a URL
// parse_store_url refuses, and what the queries throw.
LegacyScan scan_legacy_collections(std::string_view url, std::size_t max_examples);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_LEGACY_GUARD_H_
