// The outbox's key items: one per (tenant, ordering key) that has messages pending or
// parked (or a unit committing some), in the unit's partition of the inbox container
// (beside those messages), holding lastSequence, the highest sequence any committed unit
// gave a message of that key since the item was created. Its id is
// keys::compose_cosmos_outbox_key_item_id (src/keys/ cosmos_key.h:
// "docket:outbox:key:{tenant}:{orderingKey}", clear of message and dedup ids), "docketTable" is
// "docket_outbox_key" (kOutboxKeyTable), telling it from the messages, the dedup items and the
// application's items there.
//
// Why: sequences are drawn just before a unit's batch (cosmos_sequence_counter.h), so two
// units of one key may commit out of draw order, and the relay's claim, which leases a
// key's earliest pending message and holds the later ones, would publish the later
// message before the earlier exists. Each unit that stages messages of a key reads its
// key item before drawing, creating it (lastSequence 0) where there is none, and its batch
// replaces the key item under the etag so read, setting lastSequence to the unit's last
// sequence for the key. A unit of that key that committed between the read and the batch
// changed the item, and a removal deleted it, so the batch fails whole (412, or 404) and
// the unit reads and draws again (cosmos_unit.h). Invariant: per key, commit order is
// sequence order; every message of a key a claim has not met yet will have a higher
// sequence than those it met.
//
// Removal: once no message of its key is pending or parked (after a complete, skip, cancel
// or purge), the key item is deleted under the etag of the query that found no message
// holding the key (forget_if_unheld), so a container whose ordering keys are order numbers
// does not grow by one item per key for ever. It cannot reopen the race above: a batch
// never writes a key item on its absence, only under an etag a read gave, and no etag is
// given twice, even to an item created anew after a delete; so a unit that read before the
// delete fails its batch, reads (and creates) again and draws again, above every sequence
// drawn before. A unit that commits before the delete changes the etag, and the delete
// fails instead (the item stays). Deleting a key item is therefore safe at any time: the
// emptiness check only decides when it is worth it.
//
// Thread-safety: pure functions, and reads and writes over a thread-safe Client.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_KEY_ITEM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_KEY_ITEM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail::outbox {

inline constexpr std::string_view kOutboxKeyTable = "docket_outbox_key";
inline constexpr std::string_view kLastSequence = "lastSequence";

// The id of the key item of `ordering_key` of `tenant`. Throws InvalidKeyTermError or
// KeyTooLongError (over 1,023 bytes) naming the term to change.
std::string key_item_id(std::string_view tenant, std::string_view ordering_key);

// A key item as a unit read it before drawing: its id, etag and lastSequence (0 when the
// read created it), and whether the read created it.
struct KeyItemRead {
  std::string id{};
  std::string etag{};
  std::int64_t last_sequence = 0;
  bool created = false;
};

// Where a key item is, and who asks (for errors).
struct KeyItemPlace {
  const Client& client;
  std::string_view container;
  std::string_view partition;
  std::string_view store;
};

// One point read of the key item `id`, and where there is none, its create (lastSequence
// 0; read again where a concurrent unit created it first). Throws InfrastructureError
// naming `place.store` and the item when it holds no integer lastSequence (changed
// outside docket).
KeyItemRead read_or_create_key_item(const KeyItemPlace& place, std::string_view id);

// Deletes the key item `read` created, where it still has the etag it was created with
// (no unit committed to it since): for a unit whose batch failed for another reason, so
// that it leaves no key item without a message. Best effort: a failure is ignored (an
// empty key item is harmless; the next removal of its key deletes it).
void forget_created(const KeyItemPlace& place, const KeyItemRead& read) noexcept;

// Deletes the key item of `ordering_key` of `tenant` in `place.partition` where no
// message of that key there is pending or parked: one query of that partition gives the
// key item's etag and any message holding the key, and the delete is under that etag, so a
// unit that commits a message of the key meanwhile keeps the item. Whether it deleted it.
bool forget_if_unheld(const KeyItemPlace& place, std::string_view tenant,
                      std::string_view ordering_key);

// Where a keyed message's key item is: its partition, tenant and ordering key.
struct KeyOfMessage {
  std::string partition;
  std::string tenant;
  std::string ordering_key;
  auto operator<=>(const KeyOfMessage&) const = default;
};

// forget_if_unheld of each of `keys`, after a change released them (a message of the key
// completed, skipped, cancelled or purged). Best effort: the change has committed, so a
// failure here is not its caller's; a key item left is harmless, and the key's next
// release, or the purge of its done messages, deletes it.
void forget_unheld(const Client& client, std::string_view container, std::string_view store,
                   const std::set<KeyOfMessage>& keys) noexcept;

// The batch operation that writes the key item of `read` with lastSequence
// `last_sequence`: a replace under the etag of `read`.
nlohmann::json key_item_operation(std::string_view partition, const KeyItemRead& read,
                                  std::int64_t last_sequence);

// The bytes key_item_operation() takes at most for `id` in `partition`, counted toward
// the batch's 2 MB when the key item is staged.
std::size_t key_item_operation_bytes(std::string_view id, std::string_view partition);

}  // namespace docket::cosmos::detail::outbox

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_OUTBOX_KEY_ITEM_H_
