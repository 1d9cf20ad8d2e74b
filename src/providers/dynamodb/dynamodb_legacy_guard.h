// The legacy-key guard of a DynamoDB store (DESIGN.md, Guards), on the event and saga
// stores: before the store acts on silence (a load that came back empty, an append that
// finds no stream, a saga created or saved where none is found), it checks, once per
// store instance, whether its table holds an item whose key has no tenant segment (the
// shape of releases that stored streams and sagas without one, keys/legacy.h). If so,
// it throws LegacyDataError naming the table and the key, and the caller writes
// nothing. A read that returned items never calls it.
//
// The check is ONE Scan page of at most `probe_items` items (Limit), filtered to keys
// that do not begin "t:" and confirmed with keys::is_legacy_untenanted_*_key: DynamoDB
// has no ordered access across partitions to express it as a range read. A table
// upgraded in place holds the old shape on every item, so the first page cannot miss
// it, and one page keeps a large correctly keyed table from paying for a full scan.
// Blind spot: a table holding both shapes with the old one only beyond the first page
// (which takes a partial rollback to produce) is not detected.
//
// When to probe, the kept outcome and the refusal's wording are the kit's
// (kit/legacy_probe.h), shared with the other document providers.
//
// Thread-safety: check() may be called from many threads at once; one probes while the
// others wait for its outcome.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_LEGACY_GUARD_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_LEGACY_GUARD_H_

#include <cstddef>
#include <string>

#include "providers/dynamodb/dynamodb_client.h"
#include "providers/kit/legacy_probe.h"

namespace docket::dynamodb::detail {

enum class LegacyKeyKind { kStream, kSaga };

inline constexpr std::size_t kLegacyProbeItems = 100;

class LegacyGuard {
 public:
  // `table` and `key_attribute` name where the keys live; `records` says what they key
  // ("event", "saga") for the refusal.
  LegacyGuard(std::string table, std::string key_attribute, LegacyKeyKind kind,
              std::size_t probe_items = kLegacyProbeItems);

  // Throws LegacyDataError when the table holds a legacy untenanted key (probing on
  // the first call only); what the Scan throws when it fails (the next call probes).
  void check(const Client& client);

  // Every legacy key of the table, all Scan pages with the probe's filter (a full read
  // of the table, for `docket migrate scan`); a missing table has none.
  LegacyKeyPlace scan(const Client& client, std::size_t max_examples) const;

  // How many probes (Scan requests) this guard has sent.
  int probes() const noexcept { return once_.probes(); }

  // The Scan request of the probe (and, with no Limit, of scan() and of the tenant
  // re-key, which drops its projection to read whole items).
  nlohmann::json scan_request() const;
  // Whether `key`, found by that request, is a legacy key.
  bool is_legacy(std::string_view key) const;

 private:
  // One Scan page: the first legacy key on it, or nullopt.
  std::optional<std::string> probe(const Client& client) const;

  std::string table_;
  std::string key_attribute_;
  LegacyKeyKind kind_;
  std::size_t probe_items_;
  kit::LegacyProbeOnce once_;
};

// Every legacy key of the event and saga tables of `url` (docket/stores/legacy_scan.h), the
// provider's ProviderRegistration::legacy_scan. Throws ConfigurationError for a URL
// parse_store_url refuses, and what the reads throw.
LegacyScan scan_legacy_tables(std::string_view url, std::size_t max_examples);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_LEGACY_GUARD_H_
