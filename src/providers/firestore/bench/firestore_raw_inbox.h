// The raw limit of `docket bench inbox` on Firestore: a delivery handled once with its
// effect, the requests docket's store sends sent directly through the provider's client,
// without docket's dispatcher.
//
// A message is ONE commit: the dedup document, created under exists: false, and the
// effect document; under DedupCheck::kBeforeHandlers, as docket's store does, one get of
// its dedup document first, and a recorded message is a duplicate without the commit. A
// refused commit of one message is a duplicate (the effect's write has no
// precondition). A batch is one commit of its messages' documents (two each, so
// at most 250 messages a commit), after one batchGet of its dedup documents drops the
// messages recorded already (cheaper than a refused commit at the bench's duplicate
// share); a message delivered twice within a batch counts its second delivery a
// duplicate, and a batch refused for a concurrent duplicate is read again and sent
// without it. Documents have the shape docket's store and bench handler write
// (firestore_inbox_document.h, the bench's effects collection), keyed by src/keys, so the
// bench's checks count both sides alike.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_INBOX_FIRESTORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_INBOX_FIRESTORE_H_

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/inbox/inbox_options.h"
#include "docket/inbox/inbox_store.h"
#include "inbox_session.h"
#include "inbox_workload.h"
#include "providers/firestore/firestore_client.h"

namespace docket::bench {

// The bench's effects collection on the side of `url`: {prefix}docket_bench_effects, a
// document per message id with consumerId and body.
std::string firestore_effects_collection(const std::string& url);
// The effect document's fields for `consumer_id`.
nlohmann::json firestore_effect_fields(std::string_view consumer_id, std::string_view body);

class RawInboxFirestore final : public InboxSession {
 public:
  // `url`: a Firestore store URL whose prefix is the raw side's.
  RawInboxFirestore(const std::string& url, std::string_view consumer_id, DedupCheck dedup);

  void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

 private:
  // Sends the messages of `batch` (at most 250) in one commit, again without those
  // recorded already, until it applies.
  void commit(std::span<const BenchDelivery> batch, DispatchCounts& counts);

  std::string dedup_id_of(const BenchDelivery& delivery) const;
  // Drops from `pending` the messages whose dedup document exists (one batchGet),
  // counting them duplicates.
  void drop_recorded(std::vector<const BenchDelivery*>& pending, DispatchCounts& counts);
  // Whether `delivery`'s dedup document exists: one get.
  bool recorded(const BenchDelivery& delivery);

  firestore::detail::Client client_;
  std::string inbox_;
  std::string effects_;
  std::string consumer_id_;
  DedupCheck dedup_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_INBOX_FIRESTORE_H_
