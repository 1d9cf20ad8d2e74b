// The raw limit of `docket bench outbox` on Cosmos DB: what docket's Outbox, Relay and
// Cosmos DB outbox store do to a message, sent directly through the provider's client
// (cosmos_client.h, the transport) in the fewest requests the REST API allows, without
// docket's unit of work or store. Items are those docket's store writes of the message
// (cosmos_outbox_item.h's outbox_item: the same properties, so the same sizes and the same
// indexed pendingSequence the relay's query ranges over), in the producer's partition (the
// untenanted tenant's) of the side's inbox container.
//
//   stage   the sequence drawn from the same counter item docket draws from (one patch
//           `incr` of {prefix}docket_sequences: Cosmos DB has no sequence across
//           partitions, and the relay's order and the feed need one), then ONE point create
//           of the message item (the producer's transactional batch, which holds only the
//           message here: the bench stages it alone). A fill of n messages is one draw of
//           n and one batch of their creates (at most 100 operations).
//   relay   ONE query of the due, unleased pending messages (pendingSequence > 0,
//           nextAttemptAt and leaseUntil passed, ORDER BY pendingSequence, at most the
//           batch) per partition key range (the service's gateway serves a query across
//           partitions with ORDER BY only so; the ranges are read once per session, as
//           set-up, and again when a query finds its range split: 410), merged by
//           pendingSequence; then per partition ONE transactional
//           batch (of up to 100) replacing each whole item with its lease under If-Match
//           of the etag read; published to the PublishLog in sequence order; then per
//           partition ONE batch marking them done (status, doneAt, no pendingSequence, the
//           lease ended) under If-Match of the etag the lease's write returned.
//           A lease batch another relay beat (412 at a message it leased first: nothing of
//           the batch applied) is read again, until the pass leases some (another relay's
//           win is the relays' progress) and then at most 3 reads, as docket's claim reads
//           again where others took some: each message is leased by exactly one relay.
//           A done batch failed by a lost lease (one that ran out and was taken) is sent
//           again a replace a message, so the others are still marked.
// Docket's store sends more: its claim also reads the parked messages of ordering keys
// (one query), leases and marks each message by a replace of its own, and its
// complete_all looks the claimed ids up (one query) before marking them, as the SPI hands
// it ids alone. The bench's messages have no ordering key and never fail, so the raw side
// reads no parked messages and writes no key items.
//
// Thread-safety: one session per thread, each with its own client and connections.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_OUTBOX_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_OUTBOX_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "cosmos_raw_rest.h"
#include "message_ids.h"
#include "outbox_session.h"
#include "outbox_workload.h"
#include "raw_relay_pass.h"

namespace docket::bench {

class RawOutboxCosmos final : public OutboxSession {
 public:
  // `url`: the raw side's store URL (its containers made already). `ids` and `log` must
  // outlive the session; `source` is the run id.
  RawOutboxCosmos(const std::string& url, const std::string& source, const MessageIds& ids,
                  PublishLog& log, std::size_t batch);

  void stage(std::size_t message) override;
  void fill(std::size_t first, std::size_t count) override;
  RelayTally relay_pass() override;

 private:
  // A message item as read or written, with what a write under If-Match needs.
  struct Item {
    std::int64_t sequence = 0;
    std::string id;
    std::string partition;
    nlohmann::json body;  // without the service's properties (_etag, _ts, ...)
    std::string etag;
  };

  // Draws `count` sequences: the last of them.
  std::int64_t draw(std::int64_t count);
  nlohmann::json message_item(std::string_view id, std::int64_t sequence, std::int64_t now) const;
  // Writes each of `group` (one partition) changed by `change`, in batches of up to 100
  // under each item's etag (a batch another writer beat applies nothing), then, where
  // `one_by_one_after_failure`, each item of a failed batch by a replace of its own; keeps
  // in `group` those written, with their new etags.
  void rewrite(std::vector<Item>& group, const std::function<void(nlohmann::json&)>& change,
               bool one_by_one_after_failure);
  // The due, unleased pending messages, lowest pendingSequence first, at most `wanted`:
  // one query per partition key range, merged.
  std::vector<nlohmann::json> due_messages(std::int64_t now, std::size_t wanted);
  // One round of the claim (raw_relay_pass.h): the due messages, at most `wanted`, each
  // partition's leased to `token` until `lease_until` in its batches.
  LeaseRound<Item> lease_round(std::string_view token, std::int64_t now, std::int64_t lease_until,
                               std::size_t wanted);

  RawRest rest_;
  std::string container_;
  std::string counter_container_;
  std::string counter_id_;
  std::vector<std::string> ranges_;  // the inbox container's partition key ranges
  std::string source_;
  const MessageIds& ids_;
  PublishLog& log_;
  std::size_t batch_;
};

// The run `run_id`'s messages in the side `url` (their source), read bypassing docket.
OutboxRunRows cosmos_outbox_run_rows(const std::string& url, std::string_view run_id);
// The pending messages in the side `url`, of any run or producer.
std::int64_t cosmos_pending_outbox_rows(const std::string& url);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_OUTBOX_H_
