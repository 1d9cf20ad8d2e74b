// Splitting a legacy untenanted key (keys/legacy.h) back into the terms it was joined
// from, so that the record can be re-keyed under a tenant (`docket migrate
// tenant-rekey`, docs/migrations.md). Legacy keys joined RAW terms (no escaping), so a
// term holding the separator makes the join ambiguous: "Order:A:1" is Order + A:1 or
// Order:A + 1. docket never guesses a split. In order, it takes:
//
//   1. the terms the record's own fields name (Firestore documents carry aggregateType
//      and aggregateId, sagaType and sagaId), which must join to the key exactly;
//   2. the one split the key allows (exactly one separator where a single one joins);
//   3. the one declared type the operator names (--aggregate-type / --saga-type) that
//      the key begins (streams) or ends (Firestore sagas) with, followed (preceded) by
//      the separator;
//
// and refuses the key otherwise, saying which splits it allows. A refusal is a reason,
// never a guess.
//
// Shapes split here (the legacy shapes of keys/legacy.h that re-key to a tenant):
//   Cosmos DB stream key (streamId), DynamoDB stream key   {aggregateType}:{aggregateId}
//   Firestore event document id    {aggregateType}:{aggregateId}:{version}  (the version
//                                  is after the last ':'; it holds no ':')
//   Cosmos DB saga id              {sagaId}  (the saga type is the partition key: nothing
//                                  to split; the item's own fields must agree)
//   DynamoDB saga partition key    SAGA#{sagaId}  (the saga type is the sort key)
//   Firestore saga document id     {sagaId}_{sagaType}
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_LEGACY_SPLIT_H_
#define DOCKET_KEYS_LEGACY_SPLIT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "docket/keys/provider.h"

namespace docket::keys {

// What a record's own fields say about its terms (absent fields: nullopt).
struct LegacyFieldTerms {
  std::optional<std::string> type;  // aggregateType / sagaType
  std::optional<std::string> id;    // aggregateId / sagaId
};

struct LegacyStreamSplit {
  std::string aggregate_type;
  std::string aggregate_id;
  std::optional<std::int64_t> version;  // Firestore event document ids only
  std::string refusal;                  // empty when split; else why not

  bool split() const noexcept { return refusal.empty(); }
};

struct LegacySagaSplit {
  std::string saga_type;  // Cosmos DB, DynamoDB: the partition (sort) key as given
  std::string saga_id;
  std::string refusal;  // empty when split; else why not

  bool split() const noexcept { return refusal.empty(); }
};

// Splits a legacy stream key (Cosmos DB, DynamoDB) or event document id (Firestore);
// other providers are refused (InvalidInputError). `declared_types` are the aggregate types the
// operator names.
LegacyStreamSplit split_legacy_stream_key(Provider provider, std::string_view key,
                                          const LegacyFieldTerms& fields,
                                          std::span<const std::string> declared_types);

// Splits a legacy saga key: Cosmos DB's id with `sort_key` its partition key value (the
// saga type), DynamoDB's partition key with `sort_key` its saga type; Firestore's
// document id (`sort_key` unused); other providers are refused (InvalidInputError).
// `declared_types` are the saga types the operator names.
LegacySagaSplit split_legacy_saga_key(Provider provider, std::string_view key,
                                      std::string_view sort_key, const LegacyFieldTerms& fields,
                                      std::span<const std::string> declared_types);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_LEGACY_SPLIT_H_
