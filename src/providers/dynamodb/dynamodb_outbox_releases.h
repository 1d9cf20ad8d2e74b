// What a change of an outbox message must release from its key item (Releasing,
// dynamodb_outbox_requests.h), found without a read where it can be: the releases of the
// messages this store leased are remembered (a message's tenant, ordering key and
// sequence never change once committed, so an entry is never stale), and those of the
// others are read with ConsistentRead, one BatchGetItem a hundred.
//
// Invariant: the memory is bounded by kMaxRemembered entries (about 200 bytes each);
// past it (the leases of relays that stopped before completing) it starts again empty,
// and a change of a message it forgot reads it.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_RELEASES_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_RELEASES_H_

#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "docket/outbox/outbox_message.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"

namespace docket::dynamodb::detail::outbox {

// `action` on the message `item` (a message item, or the part of it naming its id,
// tenant, ordering key and sequence), with its key's release.
Releasing releasing_of(const nlohmann::json& item, nlohmann::json action, std::string_view store);

class LeasedReleases {
 public:
  // `client` must outlive this; `table` is the outbox table, `store` names it in errors.
  LeasedReleases(const Client& client, std::string table, std::string store);

  // Keeps the release of the message `record`, which this store leased.
  void remember(const OutboxRecord& record);
  // Drops what it kept of the message `id` (its next lease remembers it anew).
  void forget(std::string_view id);

  // `action` of each of `ids` that names a message, in order, with its key's release:
  // as remembered, or else read. Forgets the messages of `ids`.
  std::vector<Releasing> of(const std::vector<std::string>& ids,
                            const std::function<nlohmann::json(const std::string&)>& action);

 private:
  const Client& client_;
  const std::string table_;
  const std::string store_;
  std::mutex mutex_;
  std::map<std::string, Releasing> leased_;  // by message id; actions null; under mutex_
};

}  // namespace docket::dynamodb::detail::outbox

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_OUTBOX_RELEASES_H_
