#include "docket/keys/saga_key.h"

#include "docket/core/error.h"
#include "keys/key_builder.h"

namespace docket::keys {
namespace {

using detail::KeyBuilder;

constexpr std::string_view kSagaWhat = "saga key";

// DynamoDB sagas share their table's key space; the constant prefix marks saga items.
constexpr std::string_view kSagaPrefix = "SAGA#";

// The Firestore saga shape joins saga id and saga type with a raw '_'.
constexpr char kFirestoreSagaJoin = '_';

struct Shape {
  std::string_view prefix;
  const detail::FieldLimit* limit;
};

std::optional<Shape> saga_shape(Provider provider) {
  switch (provider) {
    case Provider::kCosmosDb:
      return Shape{{}, &detail::kCosmosItemId};
    case Provider::kDynamoDb:
      return Shape{kSagaPrefix, &detail::kDynamoPartitionKey};
    case Provider::kMongoDb:
      return Shape{{}, &detail::kMongoId};
    case Provider::kFirestore:
      return Shape{{}, &detail::kFirestoreDocumentId};
    default:
      return std::nullopt;
  }
}

// The one definition of the saga shapes: [prefix]t:{tenant}:{sagaId}, and on
// Firestore t:{tenant}:{sagaId}_{sagaType}.
void build(KeyBuilder& key, Provider provider, const Shape& shape, const SagaTerms& terms) {
  key.constant(shape.prefix);
  key.constant(detail::kTenantMarker);
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  if (provider == Provider::kFirestore) {
    key.term("saga id", terms.saga_id, detail::firestore_saga_id_codec());
    key.constant(std::string_view(&kFirestoreSagaJoin, 1));
    key.term("saga type", terms.saga_type);
  } else {
    key.term("saga id", terms.saga_id);
  }
}

std::optional<SagaTerms> split_terms(Provider provider, const Shape& shape, std::string_view key) {
  if (!detail::consume_prefix(key, shape.prefix) ||
      !detail::consume_prefix(key, detail::kTenantMarker)) {
    return std::nullopt;
  }
  const auto parts = detail::split_exact<2>(key, detail::kSeparator);
  if (!parts) {
    return std::nullopt;
  }
  std::array<std::string_view, 3> fields{(*parts)[0], (*parts)[1], {}};
  if (provider == Provider::kFirestore) {
    // The saga id escapes '_', so the first raw '_' is the join.
    const std::string_view last = (*parts)[1];
    const std::size_t join = last.find(kFirestoreSagaJoin);
    if (join == std::string_view::npos) {
      return std::nullopt;
    }
    fields[1] = last.substr(0, join);
    fields[2] = last.substr(join + 1);
  }
  const auto decoded = detail::decode_all(fields);
  if (!decoded) {
    return std::nullopt;
  }
  return SagaTerms{(*decoded)[0], (*decoded)[2], (*decoded)[1]};
}

}  // namespace

Key compose_saga_key(Provider provider, const SagaTerms& terms) {
  const std::optional<Shape> shape = saga_shape(provider);
  if (!shape) {
    throw InvalidInputError(std::string(provider_display_name(provider)) +
                            " has no saga key in docket; it exists for Cosmos DB, DynamoDB, "
                            "MongoDB and Firestore. Choose one of those providers.");
  }
  KeyBuilder key(provider, kSagaWhat, *shape->limit, KeyBuilder::Mode::kThrow);
  build(key, provider, *shape, terms);
  return std::move(key).finish();
}

std::optional<SagaTerms> parse_saga_key(Provider provider, std::string_view key) {
  const std::optional<Shape> shape = saga_shape(provider);
  if (!shape) {
    return std::nullopt;
  }
  std::optional<SagaTerms> terms = split_terms(provider, *shape, key);
  if (!terms) {
    return std::nullopt;
  }
  // Only the canonical spelling parses: re-compose and compare byte for byte.
  KeyBuilder again(provider, kSagaWhat, *shape->limit, KeyBuilder::Mode::kTry);
  build(again, provider, *shape, *terms);
  const std::optional<std::string> recomposed = std::move(again).try_finish();
  if (!recomposed || *recomposed != key) {
    return std::nullopt;
  }
  return terms;
}

// The saga type beside the key is one whole field, not a joined key, so it is stored
// verbatim (nothing to separate, so nothing to escape); it is still validated and
// limit-checked like every key term.
Key compose_saga_type_key(Provider provider, const SagaTerms& terms) {
  const detail::FieldLimit* limit = nullptr;
  if (provider == Provider::kCosmosDb) {
    limit = &detail::kCosmosPartitionKey;
  } else if (provider == Provider::kDynamoDb) {
    limit = &detail::kDynamoSortKey;
  } else {
    throw InvalidInputError(std::string(provider_display_name(provider)) +
                            " has no saga type key: its saga type is inside the saga key or "
                            "a field. Only Cosmos DB (partition key) and DynamoDB (sort key) "
                            "store it beside the key.");
  }
  KeyBuilder key(provider, "saga type key", *limit, KeyBuilder::Mode::kThrow);
  key.term("saga type", terms.saga_type, detail::verbatim_codec());
  return std::move(key).finish();
}

}  // namespace docket::keys
