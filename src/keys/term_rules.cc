#include "keys/term_rules.h"

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket::keys::detail {
namespace {

// The Firestore saga shape joins saga id and saga type with a raw '_', which
// percent-encoding keeps; so the saga id escapes '_' too and the first raw '_' of the
// last segment is the join.
constexpr ByteCodec kFirestoreSagaId{kPercentEncodedBytes.with("_")};

// Cosmos DB: the narrow escape, plus what a Cosmos DB item id may not contain:
//  - '/' '\' '?' '#' are documented as restricted in an id (Resource.Id remarks). The
//    service does not reject them on create, but an item holding one cannot then be
//    read, replaced or deleted by id, because the id travels in the request path.
//  - ' ' and the ASCII control characters (0x00-0x1F, 0x7F) are not documented as
//    restricted, but also break the path-based request: ids with a space (notably a
//    trailing one) have failed request signing and reads in several Cosmos DB SDKs,
//    and control characters are unsafe in a URL path. Escaping them costs nothing for
//    plain terms and cannot make two keys equal.
constexpr ByteCodec kCosmos{
    kReservedBytes.with("/\\?# ").with_range(0x00, 0x1F).with_range(0x7F, 0x7F)};

// A term that is a whole field of its own has no separator to protect.
constexpr ByteCodec kVerbatim{ByteSet{}};

}  // namespace

const ByteCodec& term_codec(Provider provider) noexcept {
  switch (provider) {
    // Firestore and Elasticsearch: full RFC 3986 percent-encoding, as the inbox
    // document id specification requires. It also removes '/', which Firestore reads
    // as a path separator. The constant prefixes ("inbox:", "t:") keep every Firestore
    // id clear of the reserved forms "." / ".." / __.*__, whatever the terms are.
    case Provider::kFirestore:
    case Provider::kElasticsearch:
      return percent_encoding_codec();
    case Provider::kCosmosDb:
      return kCosmos;
    // MongoDB, Redis, DynamoDB: the narrow escape of the specification, '%' and ':'.
    // None of them forbids other characters in a string _id, key or key attribute
    // (all three are binary-safe or any-UTF-8 strings).
    case Provider::kMongoDb:
    case Provider::kRedis:
    case Provider::kDynamoDb:
      return reserved_codec();
  }
  return percent_encoding_codec();  // unreachable; the widest escape is the safe default
}

const ByteCodec& firestore_saga_id_codec() noexcept {
  return kFirestoreSagaId;
}

const ByteCodec& verbatim_codec() noexcept {
  return kVerbatim;
}

// A term is refused, never repaired: an empty term would leave two separators
// adjacent (and DynamoDB refuses empty key values), and replacing or dropping a bad
// UTF-8 sequence would map two different values onto one key.
void throw_unacceptable_term(std::string_view what, std::string_view term, std::string_view value) {
  std::string message = "Cannot compose the ";
  message += what;
  message += ": ";
  if (value.empty()) {
    message += "the ";
    message += term;
    message +=
        " is empty. Every term of a stored key must be non-empty; pass the real value (a "
        "blank tenant, message id or handler type usually means it was never set).";
  } else {
    const std::optional<Utf8Defect> defect = find_utf8_defect(value);
    const std::string named = std::string("the ") + std::string(term);
    // The codec's validation and find_utf8_defect() accept the same strings (the key
    // tests compare them); a term refused without a defect would be a bug in one.
    message += defect ? describe_utf8_defect(named, value, *defect) : named + " is not valid UTF-8";
    message +=
        ". docket never replaces or truncates a key term, because two different values "
        "would then share one key; fix the value where it is produced (a string cut "
        "mid-character is the usual cause).";
  }
  throw InvalidKeyTermError(std::string(term), message);
}

}  // namespace docket::keys::detail
