#include "docket/keys/stream_key.h"

#include "docket/core/error.h"
#include "keys/key_builder.h"

namespace docket::keys {
namespace {

using detail::KeyBuilder;

// DynamoDB snapshots share the key space of the table they live in; the constant
// prefix keeps them apart from any stream key.
constexpr std::string_view kSnapshotPrefix = "SNAPSHOT#";

// One stream-keyed shape: [prefix]t:{tenant}:[{aggregateType}:]{aggregateId}.
struct Shape {
  std::string_view what;
  std::string_view prefix;
  bool has_aggregate_type;
  const detail::FieldLimit* limit;
};

std::optional<Shape> stream_shape(Provider provider) {
  switch (provider) {
    case Provider::kCosmosDb:
      return Shape{"event stream key", {}, true, &detail::kCosmosStreamId};
    case Provider::kDynamoDb:
      return Shape{"event stream key", {}, true, &detail::kDynamoPartitionKey};
    case Provider::kMongoDb:
      // The MongoDB event store keys streams by aggregate id alone (plus the tenant).
      return Shape{"event stream key", {}, false, &detail::kMongoStreamId};
    default:
      return std::nullopt;
  }
}

std::optional<Shape> snapshot_shape(Provider provider) {
  switch (provider) {
    case Provider::kCosmosDb:
      return Shape{"snapshot key", {}, true, &detail::kCosmosSnapshotId};
    case Provider::kDynamoDb:
      return Shape{"snapshot key", kSnapshotPrefix, true, &detail::kDynamoPartitionKey};
    case Provider::kMongoDb:
      return Shape{"snapshot key", {}, true, &detail::kMongoId};
    case Provider::kFirestore:
      return Shape{"snapshot key", {}, true, &detail::kFirestoreDocumentId};
    default:
      return std::nullopt;
  }
}

constexpr Shape kFirestoreEventDocument{
    "event document id", {}, true, &detail::kFirestoreDocumentId};

[[noreturn]] void throw_no_shape(Provider provider, std::string_view what,
                                 std::string_view providers) {
  throw InvalidInputError(std::string(provider_display_name(provider)) + " has no " +
                          std::string(what) + " in docket; it exists for " +
                          std::string(providers) + ". Choose one of those providers.");
}

// The one definition of the stream-keyed shapes.
void build(KeyBuilder& key, const Shape& shape, const StreamTerms& terms) {
  key.constant(shape.prefix);
  key.constant(detail::kTenantMarker);
  key.term("tenant", terms.tenant);
  key.constant(detail::kSeparatorText);
  if (shape.has_aggregate_type) {
    key.term("aggregate type", terms.aggregate_type);
    key.constant(detail::kSeparatorText);
  }
  key.term("aggregate id", terms.aggregate_id);
}

// Splits [prefix]t:{tenant}:[{type}:]{id}[:{version}] into decoded terms and, when
// `with_version`, the raw version segment. Canonical form is checked by the caller.
std::optional<StreamTerms> split_terms(const Shape& shape, std::string_view key, bool with_version,
                                       std::string_view* version) {
  if (!detail::consume_prefix(key, shape.prefix) ||
      !detail::consume_prefix(key, detail::kTenantMarker)) {
    return std::nullopt;
  }
  StreamTerms terms;
  if (!shape.has_aggregate_type) {
    const auto parts = detail::split_exact<2>(key, detail::kSeparator);
    const auto decoded = parts ? detail::decode_all(*parts) : std::nullopt;
    if (!decoded) {
      return std::nullopt;
    }
    terms.tenant = (*decoded)[0];
    terms.aggregate_id = (*decoded)[1];
    return terms;
  }
  std::array<std::string_view, 3> fields;
  if (with_version) {
    const auto parts = detail::split_exact<4>(key, detail::kSeparator);
    if (!parts) {
      return std::nullopt;
    }
    fields = {(*parts)[0], (*parts)[1], (*parts)[2]};
    *version = (*parts)[3];
  } else {
    const auto parts = detail::split_exact<3>(key, detail::kSeparator);
    if (!parts) {
      return std::nullopt;
    }
    fields = *parts;
  }
  const auto decoded = detail::decode_all(fields);
  if (!decoded) {
    return std::nullopt;
  }
  terms.tenant = (*decoded)[0];
  terms.aggregate_type = (*decoded)[1];
  terms.aggregate_id = (*decoded)[2];
  return terms;
}

Key compose(Provider provider, const Shape& shape, const StreamTerms& terms) {
  KeyBuilder key(provider, shape.what, *shape.limit, KeyBuilder::Mode::kThrow);
  build(key, shape, terms);
  return std::move(key).finish();
}

// Only the canonical spelling parses: re-compose and compare byte for byte.
std::optional<StreamTerms> parse(Provider provider, const Shape& shape, std::string_view key) {
  std::optional<StreamTerms> terms = split_terms(shape, key, false, nullptr);
  if (!terms) {
    return std::nullopt;
  }
  KeyBuilder again(provider, shape.what, *shape.limit, KeyBuilder::Mode::kTry);
  build(again, shape, *terms);
  const std::optional<std::string> recomposed = std::move(again).try_finish();
  if (!recomposed || *recomposed != key) {
    return std::nullopt;
  }
  return terms;
}

}  // namespace

Key compose_stream_key(Provider provider, const StreamTerms& terms) {
  const std::optional<Shape> shape = stream_shape(provider);
  if (!shape) {
    throw_no_shape(provider, "event stream key",
                   "Cosmos DB, DynamoDB and MongoDB (Firestore stores one document per "
                   "event: compose_event_document_id)");
  }
  return compose(provider, *shape, terms);
}

std::optional<StreamTerms> parse_stream_key(Provider provider, std::string_view key) {
  const std::optional<Shape> shape = stream_shape(provider);
  return shape ? parse(provider, *shape, key) : std::nullopt;
}

Key compose_event_document_id(Provider provider, const StreamTerms& terms, std::int64_t version) {
  if (provider != Provider::kFirestore) {
    throw_no_shape(provider, "event document id",
                   "Firestore only (elsewhere the version lives in a sort key or a field)");
  }
  KeyBuilder key(provider, kFirestoreEventDocument.what, *kFirestoreEventDocument.limit,
                 KeyBuilder::Mode::kThrow);
  build(key, kFirestoreEventDocument, terms);
  key.constant(detail::kSeparatorText);
  key.version(version);
  return std::move(key).finish();
}

std::optional<EventDocumentTerms> parse_event_document_id(Provider provider, std::string_view id) {
  if (provider != Provider::kFirestore) {
    return std::nullopt;
  }
  std::string_view version_text;
  std::optional<StreamTerms> terms = split_terms(kFirestoreEventDocument, id, true, &version_text);
  const std::optional<std::int64_t> version =
      terms ? detail::parse_version(version_text) : std::nullopt;
  if (!version) {
    return std::nullopt;
  }
  KeyBuilder again(provider, kFirestoreEventDocument.what, *kFirestoreEventDocument.limit,
                   KeyBuilder::Mode::kTry);
  build(again, kFirestoreEventDocument, *terms);
  again.constant(detail::kSeparatorText);
  again.version(*version);
  const std::optional<std::string> recomposed = std::move(again).try_finish();
  if (!recomposed || *recomposed != id) {
    return std::nullopt;
  }
  return EventDocumentTerms{std::move(*terms), *version};
}

Key compose_snapshot_key(Provider provider, const StreamTerms& terms) {
  const std::optional<Shape> shape = snapshot_shape(provider);
  if (!shape) {
    throw_no_shape(provider, "snapshot key", "Cosmos DB, DynamoDB, MongoDB and Firestore");
  }
  return compose(provider, *shape, terms);
}

std::optional<StreamTerms> parse_snapshot_key(Provider provider, std::string_view key) {
  const std::optional<Shape> shape = snapshot_shape(provider);
  return shape ? parse(provider, *shape, key) : std::nullopt;
}

}  // namespace docket::keys
