// The raw limit of `docket bench outbox` on DynamoDB: what docket's Outbox, Relay and
// DynamoDB outbox store do to a message, sent directly through the provider's client
// (dynamodb_client.h: signing, retries) in the fewest requests DynamoDB allows, without
// docket's unit of work or store. Items and conditional actions are those the store
// writes (dynamodb_outbox_table.h's message_item, dynamodb_outbox_requests.h's lease and
// complete actions: the same attributes, so the same sizes and the same sparse index
// entries), in the side's <table_prefix>docket_outbox.
//
//   stage   the sequence drawn from the same counter item docket draws from (one UpdateItem
//           ADD: DynamoDB has no sequence across items, and the relay's order and the feed
//           need one), then ONE PutItem of the message item under attribute_not_exists(id)
//           (the producer's write alone: a one-item TransactWriteItems would do the same
//           work at twice the write units). A fill of n messages is one draw of n and one
//           TransactWriteItems of their Puts (at most 100).
//   relay   the pending index read from the lowest sequence on: ONE Query per shard (the
//           index is keyed by the shard, kShards of them), at most the batch each (32 at
//           least), the union's lowest due, unleased messages up to the batch (read on, as
//           docket's claim reads, past messages other relays leased); ONE
//           TransactWriteItems of their leases (each conditional on the item being due and
//           unleased, as the store's; one refused by another relay is dropped and the rest
//           sent again, and the claim reads again where it lost a race: raw_relay_pass.h);
//           published to the PublishLog in sequence order; ONE TransactWriteItems of their
//           completes (each conditional on the lease).
// Docket's store sends more: its claim also reads the parked index (one Query per shard)
// for the ordering keys it holds. The bench's messages have no ordering key and never
// fail, so the raw side reads no parked messages and writes no key items.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_DYNAMODB_BENCH_DYNAMODB_RAW_OUTBOX_H_
#define DOCKET_PROVIDERS_DYNAMODB_BENCH_DYNAMODB_RAW_OUTBOX_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_store.h"
#include "message_ids.h"
#include "outbox_session.h"
#include "outbox_workload.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_sequence_counter.h"
#include "providers/dynamodb/dynamodb_table_schema.h"
#include "raw_relay_pass.h"

namespace docket::bench {

class RawOutboxDynamoDb final : public OutboxSession {
 public:
  // `url`: the raw side's store URL (its outbox table made already). `ids` and `log` must
  // outlive the session; `source` is the run id.
  RawOutboxDynamoDb(const std::string& url, const std::string& source, const MessageIds& ids,
                    PublishLog& log, std::size_t batch);

  void stage(std::size_t message) override;
  void fill(std::size_t first, std::size_t count) override;
  RelayTally relay_pass() override;

 private:
  // The record docket's Outbox::stage makes of the bench's message `id`.
  OutboxRecord record_of(std::string_view id, std::int64_t sequence, Timestamp now) const;
  std::int64_t draw(std::int64_t count);
  // The due, unleased pending messages, lowest sequence first, at most `wanted`: the
  // shards' pages merged, read on past messages another relay leased (at most 8 pages).
  std::vector<OutboxRecord> due(Timestamp now, std::size_t wanted);
  // One round of the claim (raw_relay_pass.h): due() leased to `token` until
  // `lease_until` in one TransactWriteItems.
  LeaseRound<OutboxRecord> lease_round(std::string_view token, Timestamp now, Timestamp lease_until,
                                       std::size_t wanted);
  // Sends `actions` (one per message, at most 100) as TransactWriteItems, again without
  // each one refused by its own condition, until applied or none is left; which applied.
  std::vector<bool> apply(std::vector<nlohmann::json> actions);

  dynamodb::detail::Client client_;
  dynamodb::detail::TableSchema table_;
  dynamodb::detail::SequenceCounter counter_;
  std::string source_;
  const MessageIds& ids_;
  PublishLog& log_;
  std::size_t batch_;
};

// The run `run_id`'s messages in the side `url` (their source), read bypassing docket.
OutboxRunRows dynamodb_outbox_run_rows(const std::string& url, std::string_view run_id);
// The pending messages in the side `url`, of any run or producer.
std::int64_t dynamodb_pending_outbox_rows(const std::string& url);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_DYNAMODB_BENCH_DYNAMODB_RAW_OUTBOX_H_
