// The Cosmos DB provider's own key terms, beyond the inbox ids (inbox_key.h) and the
// stream, snapshot and saga keys (stream_key.h, saga_key.h): every other Cosmos DB id
// docket stores that carries a term is composed here, escaped by Cosmos DB's term codec
// (term_codec.h: '%', ':', '/', '\', '?', '#', space and control bytes).
//
//   outbox key item id   docket:outbox:key:{tenant}:{orderingKey}
//
// The outbox's key item (src/providers/cosmos/cosmos_outbox_key_item.h) lives in the
// tenant's partition of the inbox container, beside the messages, the inbox's dedup items
// and the application's items. Its id holds four unescaped ':' (a term's own ':' is
// escaped), so it is never a dedup id ({tenant}:{messageId}:{handlerType}, two) nor a
// message id (a UUID, none). An id is at most 1,023 bytes (Cosmos DB's limit); every term
// non-empty, valid UTF-8.
//
// Internal to docket (src/keys). Thread-safety: pure functions.
#ifndef DOCKET_SRC_KEYS_COSMOS_KEY_H_
#define DOCKET_SRC_KEYS_COSMOS_KEY_H_

#include <string_view>

#include "docket/keys/key.h"

namespace docket::keys {

// Throws InvalidKeyTermError naming the term when one is empty or not valid UTF-8, and
// KeyTooLongError naming the limit, the size and the term to shorten when the id does not
// fit 1,023 bytes.
Key compose_cosmos_outbox_key_item_id(std::string_view tenant, std::string_view ordering_key);

}  // namespace docket::keys

#endif  // DOCKET_SRC_KEYS_COSMOS_KEY_H_
