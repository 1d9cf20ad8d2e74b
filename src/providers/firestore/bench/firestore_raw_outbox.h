// The raw limit of `docket bench outbox` on Firestore: what docket's Outbox, Relay and
// Firestore outbox store do to a message, sent directly through the provider's client and
// its document requests (firestore_documents.h: commit, batchWrite, runQuery) in the
// fewest requests Firestore allows, without docket's unit of work or store. Documents are
// those the store writes (firestore_outbox_document.h's outbox_fields: the same fields, so
// the same sizes and the same status and sequence the relay's query reads), in the side's
// {prefix}docket_outbox.
//
//   stage   the sequence drawn from the same counter document docket draws from (one
//           commit of an increment transform, firestore_sequence_counter.h: Firestore has
//           no server sequence, and the relay's order and the feed need one), then ONE
//           commit creating the message
//           (exists: false; the producer's commit holds only the message here: the bench
//           stages it alone). A fill of n messages is one draw of n and one commit of
//           their creates (at most 500).
//   relay   ONE query of status == pending ordered by sequence, at most the batch (32 at
//           least; read on past messages another relay leased, as docket's claim reads),
//           the due, unleased ones up to the batch; ONE batchWrite of their leases, each
//           the whole document under the update time the query read, applied or refused
//           on its own (so one taken by another relay costs no other its lease, and the
//           claim reads again where it lost a race: raw_relay_pass.h); published to the
//           PublishLog in sequence order; ONE batchWrite marking them done, each under the
//           update time its lease's write returned.
// Docket's store sends the same three requests a pass (firestore_outbox_leases.h: its
// leases in one batchWrite, its marks in one under the update times the leases returned),
// and reads the parked messages' keys besides. The bench's messages have no ordering key
// and never fail, so the raw side reads no parked messages.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_FIRESTORE_BENCH_FIRESTORE_RAW_OUTBOX_H_
#define DOCKET_PROVIDERS_FIRESTORE_BENCH_FIRESTORE_RAW_OUTBOX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "message_ids.h"
#include "outbox_session.h"
#include "outbox_workload.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_sequence_counter.h"
#include "providers/kit/outbox_row.h"
#include "raw_relay_pass.h"

namespace docket::bench {

class RawOutboxFirestore final : public OutboxSession {
 public:
  // `url`: the raw side's store URL. `ids` and `log` must outlive the session; `source`
  // is the run id.
  RawOutboxFirestore(const std::string& url, const std::string& source, const MessageIds& ids,
                     PublishLog& log, std::size_t batch);

  void stage(std::size_t message) override;
  void fill(std::size_t first, std::size_t count) override;
  RelayTally relay_pass() override;

 private:
  // A message as leased: its row and the update time its last write returned.
  struct Leased {
    std::int64_t sequence = 0;
    std::string id;
    kit::OutboxRow row;
    std::string update_time;
  };

  // One round of the claim (raw_relay_pass.h): the due messages, at most `wanted`, leased
  // to `token` until `lease_until` in one batchWrite.
  LeaseRound<Leased> lease_round(std::string_view token, Timestamp now, Timestamp lease_until,
                                 std::size_t wanted);

  firestore::detail::Client client_;
  std::string collection_;
  firestore::detail::SequenceCounter counter_;
  std::string source_;
  const MessageIds& ids_;
  PublishLog& log_;
  std::size_t batch_;
};

// The run `run_id`'s messages in the side `url` (their source), read bypassing docket.
OutboxRunRows firestore_outbox_run_rows(const std::string& url, std::string_view run_id);
// The pending messages in the side `url`, of any run or producer.
std::int64_t firestore_pending_outbox_rows(const std::string& url);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_FIRESTORE_BENCH_FIRESTORE_RAW_OUTBOX_H_
