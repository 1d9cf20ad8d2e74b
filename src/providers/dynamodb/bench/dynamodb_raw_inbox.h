// The raw limit of `docket bench inbox` on DynamoDB: a delivery handled once with its
// effect, the requests docket's store sends sent directly through the provider's client,
// without docket's dispatcher.
//
// A message is ONE TransactWriteItems: the dedup item, conditional on its absence, and
// the effect item; under DedupCheck::kBeforeHandlers, as docket's store does, one
// consistent GetItem of its dedup item first, and a recorded message is a duplicate
// without the transaction. A cancellation whose reason sits at a dedup item is a
// duplicate. A
// batch is one transaction of its messages' items (two each, so at most 50 messages a
// request), after one consistent BatchGetItem of its dedup items drops the messages
// recorded already (cheaper than a cancelled transaction at the bench's duplicate
// share); a message delivered twice within a batch counts its second delivery a
// duplicate, and a batch cancelled by a concurrent duplicate is sent again without it. No
// ClientRequestToken: the baseline never resends. Items have the shape docket's store
// and bench handler write (dynamodb_inbox_table.h, the bench's effects table), keyed by
// src/keys, so the bench's checks count both sides alike.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_INBOX_DYNAMODB_H_
#define DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_INBOX_DYNAMODB_H_

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/inbox/inbox_options.h"
#include "docket/inbox/inbox_store.h"
#include "inbox_session.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_table_schema.h"

namespace docket::bench {

// The bench's effects table on the side of `url`: <table_prefix>docket_bench_effects,
// keyed by id (S), the message id; consumer_id and body beside it.
dynamodb::detail::TableSchema effects_table_schema(const std::string& url);
// The effect item of `message_id` for `consumer_id`.
nlohmann::json effect_item(std::string_view consumer_id, std::string_view message_id,
                           std::string_view body);

class RawInboxDynamoDb final : public InboxSession {
 public:
  // `url`: a DynamoDB store URL whose table_prefix is the raw side's (its inbox and
  // effects tables made already).
  RawInboxDynamoDb(const std::string& url, std::string_view consumer_id, DedupCheck dedup);

  void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

 private:
  // Sends the messages of `batch` (at most 50) in one transaction, again without those a
  // cancellation finds recorded already, until it commits.
  void commit(std::span<const BenchDelivery> batch, DispatchCounts& counts);

  DedupKey dedup_key_of(const BenchDelivery& delivery) const;
  // Drops from `pending` the messages whose dedup item exists (one consistent
  // BatchGetItem, its unprocessed keys sent again), counting them duplicates.
  void drop_recorded(std::vector<const BenchDelivery*>& pending, DispatchCounts& counts);
  // Whether `delivery`'s dedup item exists: one consistent GetItem.
  bool recorded(const BenchDelivery& delivery);

  dynamodb::detail::Client client_;
  dynamodb::detail::TableSchema inbox_;
  std::string effects_;
  std::string consumer_id_;
  DedupCheck dedup_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_INBOX_DYNAMODB_H_
