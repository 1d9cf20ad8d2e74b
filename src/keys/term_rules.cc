#include "keys/term_rules.h"

#include "docket/error.h"
#include "docket/utf8.h"

namespace docket::keys::detail {
namespace {

// Firestore and Elasticsearch: full RFC 3986 percent-encoding, as the inbox document
// id specification requires. It also removes '/', which Firestore reads as a path
// separator. The constant prefixes ("inbox:", "t:") keep every Firestore id clear of
// the reserved forms "." / ".." / __.*__, whatever the terms are.
constexpr ByteSet kFullPercentEncoding = ByteSet::all_but_unreserved();

// The Firestore saga shape joins saga id and saga type with a raw '_', which
// percent-encoding keeps; so the saga id escapes '_' too and the first raw '_' of the
// last segment is the join.
constexpr ByteSet kFirestoreSagaId = kFullPercentEncoding.with("_");

// MongoDB, Redis, DynamoDB: the narrow escape of the specification, '%' and ':'.
// None of them forbids other characters in a string _id, key or key attribute (all
// three are binary-safe or any-UTF-8 strings).
constexpr ByteSet kNarrow = ByteSet{}.with("%:");

// Cosmos DB: the narrow escape, plus what a Cosmos DB item id may not contain:
//  - '/' '\' '?' '#' are documented as restricted in an id (Resource.Id remarks). The
//    service does not reject them on create, but an item holding one cannot then be
//    read, replaced or deleted by id, because the id travels in the request path.
//  - ' ' and the ASCII control characters (0x00-0x1F, 0x7F) are not documented as
//    restricted, but also break the path-based request: ids with a space (notably a
//    trailing one) have failed request signing and reads in several Cosmos DB SDKs,
//    and control characters are unsafe in a URL path. Escaping them costs nothing for
//    plain terms and cannot make two keys equal.
constexpr ByteSet kCosmos = kNarrow.with("/\\?# ").with_range(0x00, 0x1F).with_range(0x7F, 0x7F);

constexpr char kHexDigits[] = "0123456789ABCDEF";

}  // namespace

void append_escaped(std::string_view bytes, const ByteSet& escaped, std::string& out) {
  for (char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if (escaped.contains(byte)) {
      out += '%';
      out += kHexDigits[byte >> 4];
      out += kHexDigits[byte & 0x0F];
    } else {
      out += c;
    }
  }
}

const ByteSet& term_escapes(Provider provider) noexcept {
  switch (provider) {
    case Provider::kFirestore:
    case Provider::kElasticsearch:
      return kFullPercentEncoding;
    case Provider::kCosmosDb:
      return kCosmos;
    case Provider::kMongoDb:
    case Provider::kRedis:
    case Provider::kDynamoDb:
      return kNarrow;
  }
  return kFullPercentEncoding;  // unreachable; the widest escape is the safe default
}

const ByteSet& firestore_saga_id_escapes() noexcept {
  return kFirestoreSagaId;
}

// A term is refused, never repaired: an empty term would leave two separators
// adjacent (and DynamoDB refuses empty key values), and replacing or dropping a bad
// UTF-8 sequence would map two different values onto one key.
bool is_acceptable_term(std::string_view value) noexcept {
  return !value.empty() && is_valid_utf8(value);
}

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
    const Utf8Defect defect = *find_utf8_defect(value);
    message += describe_utf8_defect(std::string("the ") + std::string(term), value, defect);
    message +=
        ". docket never replaces or truncates a key term, because two different values "
        "would then share one key; fix the value where it is produced (a string cut "
        "mid-character is the usual cause).";
  }
  throw InvalidKeyTermError(std::string(term), message);
}

}  // namespace docket::keys::detail
