// The raw limit of `docket bench events` on DynamoDB: an optimistic append and a load
// sent the fastest correct way DynamoDB allows, through the provider's client, without
// docket's store.
//
// An append of one event to a new stream is one PutItem conditional on the item's
// absence (nothing else can be true of a new stream); any other append is one
// TransactWriteItems: a ConditionCheck that the expected version exists, and a Put per
// event conditional on its absence, so a stale expectation or a concurrent appender
// applies nothing. No ClientRequestToken: the baseline never resends. On a refusal the
// stream's version is read (a consistent Query, newest first, Limit 1), as an
// application would before retrying. A load is a consistent Query of the stream, paged.
// Items have the shape docket's store writes (dynamodb_event_item.h), keyed by
// src/keys, so the bench's checks read both sides alike.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_EVENTS_DYNAMODB_H_
#define DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_EVENTS_DYNAMODB_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "event_session.h"
#include "providers/dynamodb/dynamodb_client.h"

namespace docket::bench {

class RawEventsDynamoDb final : public EventSession {
 public:
  // `url`: a DynamoDB store URL whose table_prefix is the raw side's (its events table
  // made already).
  explicit RawEventsDynamoDb(const std::string& url);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  std::string stream_key(std::string_view aggregate_type, std::string_view aggregate_id) const;
  std::int64_t stream_version(const std::string& key);

  dynamodb::detail::Client client_;
  std::string table_;
  std::uint64_t sink_ = 0;  // what was read, so that reading is not optimised away
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_DYNAMODB_BENCH_RAW_EVENTS_DYNAMODB_H_
