// A sequence counter on DynamoDB: one item whose number attribute is the highest
// sequence handed out, raised on the server by UpdateItem ADD, so that no two draws
// share a number and no number is handed out again. The outbox's global order
// (dynamodb_outbox_table.h) is drawn from one.
//
// A unit of work draws once, just before its TransactWriteItems, for all the messages
// it commits (dynamodb_unit.h): draw_sequences(..., n) returns the last of n numbers,
// the messages take last - n + 1 .. last in staging order. Drawn at commit, a number
// is invisible only while its commit is in flight (and its retries after conflicts),
// not while the producer's unit is open.
//
// Gaps: a number drawn and never committed is a gap a pull consumer waits one
// gap_timeout for, then passes (docket/outbox/pull_consumer.h). That is so when the
// commit after the draw is cancelled or fails, and when the draw itself was applied
// twice: the UpdateItem is Replay::kSafe, so the client resends it after an ambiguous
// failure (a lost answer), and where both reached the table the first n numbers are
// skipped. No gap is ever filled later, so none makes a consumer skip a message.
//
// Holds: a sequence may also have to be held in a number set of another item from the
// commit that stages it until a commit that releases it (the outbox's key item per
// ordering key, dynamodb_outbox_table.h). The unit adds a commit's sequences of one
// hold in one Update (hold_request) in the same TransactWriteItems, where the set has
// room for them and the item's last_held is below the first of them: per hold, commit
// order is sequence order, since a unit that drew before another of the same hold
// but commits after it is refused and draws again (dynamodb_unit.h).
//
// Thread-safety: SequenceCounter and SequenceHold are values; draw_sequences may be
// called from many threads (and processes) at once; the rest are pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SEQUENCE_COUNTER_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SEQUENCE_COUNTER_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail {

struct SequenceCounter {
  std::string table;      // the counter item's table
  nlohmann::json key;     // its primary key, DynamoDB JSON
  std::string attribute;  // its number attribute: the highest sequence handed out

  bool operator==(const SequenceCounter&) const = default;
};

// Raises `counter` by `count` (at least 1) in one UpdateItem and returns its new value:
// the last of the `count` numbers drawn. Throws InfrastructureError naming `store` when
// the answer has no number.
std::int64_t draw_sequences(const Client& client, const SequenceCounter& counter,
                            std::int64_t count, std::string_view store);

// The item a sequenced put holds its sequence in until released: where it is, the
// most sequences it may hold, and what it is called in errors ("ordering key 'k' of
// tenant 't'"). Two holds are one when they name one item.
struct SequenceHold {
  std::string table;
  nlohmann::json key;          // the holding item's primary key, DynamoDB JSON
  std::string set_attribute;   // its number set of held sequences
  std::string last_attribute;  // its number: the highest sequence ever added
  std::size_t max_held = 0;
  std::string what;

  bool operator==(const SequenceHold& other) const {
    return table == other.table && key == other.key;
  }
};

// A TransactItems element: the Update of `hold`'s item that adds `sequences`
// (ascending, not empty) to its set and makes the last its last_held, where the set
// has room for them (at most max_held in all) and last_held is below the first. When
// refused it returns the item as it was (ALL_OLD), for refused_for_room.
nlohmann::json hold_request(const SequenceHold& hold, std::span<const std::int64_t> sequences);

// The number of sequences `item` holds in `set_attribute` (0 when it has none).
std::size_t held_count(const nlohmann::json& item, std::string_view set_attribute);

// Whether hold_request(hold, n sequences) was refused for room (the item, as it was,
// holds more than max_held - n), rather than for order (a unit of the same hold that
// drew later committed first).
bool refused_for_room(const SequenceHold& hold, const nlohmann::json& old_item, std::size_t adding);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SEQUENCE_COUNTER_H_
