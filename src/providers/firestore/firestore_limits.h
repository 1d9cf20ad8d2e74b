// Firestore's limits on what one request may write, checked before anything is sent,
// so that a document Firestore would refuse is an InvalidInputError naming the
// collection, the document, the limit and the actual size, and nothing is written:
//
//   document id    1 to 1,500 bytes of UTF-8, no '/', not "." or "..", not __.*__
//   document       at most 1 MiB (1,048,576 bytes) as Firestore counts storage size:
//                  the document name (each path segment's bytes + 1, plus 16), each
//                  field name's bytes + 1 and its value, plus 32. Values: a string its
//                  UTF-8 bytes + 1; bytes their length; integer, double and timestamp 8;
//                  boolean and null 1; a map its fields' names + 1 and values; an array
//                  its values
//   commit         at most 500 writes, and 10 MiB of documents (a transaction's size)
//   request        at most 10 MiB of JSON (the service's API request limit; the client
//                  refuses a larger one before sending). The Cloud Firestore emulator
//                  takes at most 4 MiB a request and answers a larger one with
//                  RESOURCE_EXHAUSTED, which the client reports without repeating it.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_LIMITS_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_LIMITS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "providers/kit/store_kind_capabilities.h"

namespace docket::firestore::detail {

inline constexpr std::size_t kMaxDocumentIdBytes = 1500;
inline constexpr std::size_t kMaxDocumentBytes = 1024 * 1024;
inline constexpr std::size_t kMaxWritesPerCommit = 500;
inline constexpr std::size_t kMaxCommitBytes = 10 * 1024 * 1024;
inline constexpr std::size_t kMaxRequestBytes = 10 * 1024 * 1024;
// What one commit of a unit of work may hold.
inline constexpr kit::UnitLimits kUnitLimits{.max_writes = kMaxWritesPerCommit,
                                             .max_bytes = kMaxCommitBytes,
                                             .max_record_bytes = kMaxDocumentBytes};

// Throws InvalidInputError naming the collection and the id when Firestore would refuse
// `id` as a document id.
void check_document_id(std::string_view collection, std::string_view id);

// The storage size of a document of `collection` named `id` with `fields` (an object of
// field name -> Value). Throws InvalidInputError naming the field for a value of no
// type Firestore has.
std::size_t document_size(std::string_view collection, std::string_view id,
                          const nlohmann::json& fields);

// check_document_id(), then throws InvalidInputError naming the collection, the id, the
// limit and the actual size when the document is over kMaxDocumentBytes.
void check_document(std::string_view collection, std::string_view id, const nlohmann::json& fields);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_LIMITS_H_
