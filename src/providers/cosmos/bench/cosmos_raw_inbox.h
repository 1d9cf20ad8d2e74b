// The raw limit of `docket bench inbox` on Cosmos DB: a delivery handled once with its
// effect, the requests docket's store sends sent directly through the provider's client
// (cosmos_client.h, the transport), without docket's dispatcher, unit of work or store.
//
// A message is ONE transactional batch in its tenant's partition of the inbox container:
// a Create of the dedup item (which the service refuses with 409 when the message was
// recorded already, failing the whole batch) and a Create of the effect item. Under
// DedupCheck::kBeforeHandlers, as docket's store does, one point read of the dedup item
// comes first, and a recorded message is a duplicate without the batch. A batch of
// deliveries is one transactional batch of its messages' items (two each, so at most 50
// messages a request), after one query of the partition for the dedup ids recorded
// already; a message delivered twice within a batch counts its second delivery a
// duplicate, and a batch failed by a concurrent duplicate (409 at a dedup item) is sent
// again without it. Items have the shape docket's store and the bench handler write
// (cosmos_inbox_store.h), keyed by src/keys, so the bench's checks count both sides alike.
//
// Thread-safety: one session per thread, each with its own client and connections.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_INBOX_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_INBOX_H_

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cosmos_raw_rest.h"
#include "docket/inbox/inbox_options.h"
#include "docket/inbox/inbox_store.h"
#include "inbox_session.h"

namespace docket::bench {

// docketTable of the bench handler's effect items in the inbox container.
inline constexpr std::string_view kCosmosEffectTable = "docket_bench_effects";

// The id of `message_id`'s effect item, and the item (without id and pk, which the
// writer sets) for `consumer_id`.
std::string cosmos_effect_id(std::string_view message_id);
nlohmann::json cosmos_effect_item(std::string_view consumer_id, std::string_view message_id,
                                  std::string_view body);

class RawInboxCosmos final : public InboxSession {
 public:
  // `url`: a Cosmos DB store URL naming the raw side's database (its inbox container made
  // already).
  RawInboxCosmos(const std::string& url, std::string_view consumer_id, DedupCheck dedup);

  void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

 private:
  // Sends the messages of `batch` (at most 50) in one transactional batch, again without
  // one a 409 finds recorded already, until it is applied.
  void commit(std::span<const BenchDelivery> batch, DispatchCounts& counts);
  std::string dedup_id_of(const BenchDelivery& delivery) const;
  // Drops from `pending` the messages whose dedup item exists (one query of the
  // partition), counting them duplicates.
  void drop_recorded(std::vector<const BenchDelivery*>& pending, DispatchCounts& counts);
  // Whether `delivery`'s dedup item exists: one point read.
  bool recorded(const BenchDelivery& delivery);

  RawRest rest_;
  std::string container_;
  std::string tenant_;
  std::string consumer_id_;
  DedupCheck dedup_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_INBOX_H_
