// A sequence counter on Firestore: one document whose integer field is the highest
// sequence handed out, raised on the server by a commit of its own with an increment
// transform (whose result the commit returns), so that no two draws share a number and
// no number is handed out again. The outbox's global order (firestore_outbox_document.h)
// is drawn from one. Firestore has no server sequence; putting the increment in the
// producer's own commit instead would make every two concurrent producers conflict on
// the counter, and a document cannot take a transform's result as a field.
//
// A unit of work draws once, just before its commit, for all the messages it commits
// (firestore_unit.h): draw_sequences(..., n) returns the last of n numbers, the messages
// take last - n + 1 .. last in staging order. Drawn at commit, a number is invisible
// only while that commit is in flight, not while the producer's unit is open.
//
// Gaps: a number drawn and never committed is a gap a pull consumer waits one
// gap_timeout for, then passes (docket/outbox/pull_consumer.h): the unit's commit after
// the draw was refused or failed, or the draw's own answer was lost. The draw is sent
// once (Replay::kUnsafe), never resent, so it never takes numbers twice; a lost answer
// fails the unit's commit before anything of the unit is sent, and the numbers it may
// have taken are such a gap. No gap is ever filled later, so none makes a consumer skip
// a message.
//
// Thread-safety: SequenceCounter is a value; draw_sequences may be called from many
// threads (and processes) at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SEQUENCE_COUNTER_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SEQUENCE_COUNTER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "providers/firestore/firestore_client.h"

namespace docket::firestore::detail {

struct SequenceCounter {
  std::string collection;  // the counter document's collection
  std::string id;          // its id
  std::string field;       // its integer field: the highest sequence handed out

  bool operator==(const SequenceCounter&) const = default;
};

// Raises `counter` by `count` (at least 1) in one commit and returns its new value: the
// last of the `count` numbers drawn. Throws InfrastructureError naming `store` when the
// answer has no result.
std::int64_t draw_sequences(const Client& client, const SequenceCounter& counter,
                            std::int64_t count, std::string_view store);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SEQUENCE_COUNTER_H_
