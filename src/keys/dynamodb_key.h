// The DynamoDB provider's key terms beyond the shapes of the public headers: every
// DynamoDB item id docket stores that carries a term is composed here, escaped by
// DynamoDB's term codec (only '%' and ':', term_codec.h), at most 2,048 bytes (the
// partition key's limit):
//
//   outbox key item   docket:outbox:key:t:{tenant}:{orderingKey}
//
// The key item holds the sequences of one ordering key's unpublished messages
// (src/providers/dynamodb/dynamodb_outbox_table.h). Its id shares the outbox table with
// the messages' (UUIDs) and the sequence counter's ("docket:outbox:sequence"), neither
// of which begins with "docket:outbox:key:".
//
// Internal to docket (src/keys). Thread-safety: pure functions.
#ifndef DOCKET_SRC_KEYS_DYNAMODB_KEY_H_
#define DOCKET_SRC_KEYS_DYNAMODB_KEY_H_

#include <string_view>

#include "docket/keys/key.h"

namespace docket::keys {

// Throws InvalidKeyTermError naming the term when one is empty or not valid UTF-8, and
// KeyTooLongError when the id would pass 2,048 bytes.
Key compose_dynamodb_outbox_key_item(std::string_view tenant, std::string_view ordering_key);

}  // namespace docket::keys

#endif  // DOCKET_SRC_KEYS_DYNAMODB_KEY_H_
