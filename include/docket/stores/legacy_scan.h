// scan_legacy_keys: where a store holds records under a key shape docket no longer
// writes (keys/legacy.h: event streams and sagas keyed without their tenant), how many,
// and examples, for an operator planning a re-key (`docket migrate scan`,
// docs/migrations.md). It reads every key of the places it names and writes nothing;
// the stores' own guard (one probe page, at most once per store) refuses to act while
// such records remain, this finds them all.
//
// Providers that key records by columns (memory, SQLite, PostgreSQL) hold no key
// shapes to outlive: their scan names no place.
//
// Thread-safety: a free function; it opens its own connection.
#ifndef DOCKET_STORES_LEGACY_SCAN_H_
#define DOCKET_STORES_LEGACY_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace docket {

// One table or collection a provider keeps keyed records in.
struct LegacyKeyPlace {
  std::string where;         // "DynamoDB table 'app_docket_events'"
  std::string records;       // what it holds: "event items", "saga documents"
  bool exists = false;       // false: the table or collection has nothing (or is absent)
  std::uint64_t legacy = 0;  // records under a legacy key
  // The first of their keys, in the scan's order, one a stream (the key of its first
  // event record read) or saga or inbox entry.
  std::vector<std::string> examples;
};

struct LegacyScan {
  std::string provider;                // "dynamodb"
  std::vector<LegacyKeyPlace> places;  // empty: the provider keys records by columns

  std::uint64_t legacy() const noexcept {
    std::uint64_t total = 0;
    for (const LegacyKeyPlace& place : places) {
      total += place.legacy;
    }
    return total;
  }
};

// Scans the stores `url` names, keeping at most `max_examples` keys a place. Throws
// ConfigurationError for a URL no provider of this build opens, and what the reads
// throw.
LegacyScan scan_legacy_keys(std::string_view url, std::size_t max_examples = 5);

}  // namespace docket

#endif  // DOCKET_STORES_LEGACY_SCAN_H_
