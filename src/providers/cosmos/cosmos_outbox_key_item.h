// The outbox's key items: one per (tenant, ordering key) that a unit of work has
// committed messages for, in the unit's partition of the inbox container (beside those
// messages), holding lastSequence, the highest sequence any committed unit gave a
// message of that key. Its id is keys::compose_cosmos_outbox_key_item_id (src/keys/
// cosmos_key.h: "docket:outbox:key:{tenant}:{orderingKey}", clear of message and dedup
// ids), "docketTable" is "docket_outbox_key" (kOutboxKeyTable), telling it from the
// messages, the dedup items and the application's items there.
//
// Why: sequences are drawn just before a unit's batch (cosmos_sequence_counter.h), so two
// units of one key may commit out of draw order, and the relay's claim, which leases a
// key's earliest pending message and holds the later ones, would publish the later
// message before the earlier exists. Each unit that stages messages of a key reads its
// key item before drawing, and its batch writes the key item under the etag read (a
// create where none was read), setting lastSequence to the unit's last sequence for the
// key. A unit of that key that committed between the read and the batch changed the item
// (or created it), so the batch fails whole (412, or 409) and the unit reads and draws
// again (cosmos_unit.h). Invariant: per key, commit order is sequence order; every
// message of a key a claim has not met yet will have a higher sequence than those it met.
//
// Key items are never deleted: one small item per (tenant, ordering key) ever used.
//
// Thread-safety: pure functions, and reads over a thread-safe Client.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_KEY_ITEM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_KEY_ITEM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail::outbox {

inline constexpr std::string_view kOutboxKeyTable = "docket_outbox_key";
inline constexpr std::string_view kLastSequence = "lastSequence";

// The id of the key item of `ordering_key` of `tenant`. Throws InvalidKeyTermError or
// KeyTooLongError (over 1,023 bytes) naming the term to change.
std::string key_item_id(std::string_view tenant, std::string_view ordering_key);

// A key item as a unit read it before drawing: its etag (nullopt when there was none)
// and lastSequence (0 when there was none).
struct KeyItemRead {
  std::optional<std::string> etag;
  std::int64_t last_sequence = 0;
};

// Where a key item is, and who asks (for errors).
struct KeyItemPlace {
  const Client& client;
  std::string_view container;
  std::string_view partition;
  std::string_view store;
};

// One point read of the key item `id`. Throws InfrastructureError naming `place.store`
// and the item when it holds no integer lastSequence (changed outside docket).
KeyItemRead read_key_item(const KeyItemPlace& place, std::string_view id);

// The batch operation that writes key item `id` with lastSequence `last_sequence`: a
// replace under the etag of `read`, or a create when `read` found none.
nlohmann::json key_item_operation(std::string_view id, std::string_view partition,
                                  const KeyItemRead& read, std::int64_t last_sequence);

// The bytes key_item_operation() takes at most for `id` in `partition`, counted toward
// the batch's 2 MB when the key item is staged.
std::size_t key_item_operation_bytes(std::string_view id, std::string_view partition);

}  // namespace docket::cosmos::detail::outbox

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_KEY_ITEM_H_
