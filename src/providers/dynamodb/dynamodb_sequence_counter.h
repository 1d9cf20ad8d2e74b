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
// Thread-safety: SequenceCounter is a value; draw_sequences may be called from many
// threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SEQUENCE_COUNTER_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SEQUENCE_COUNTER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
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

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SEQUENCE_COUNTER_H_
