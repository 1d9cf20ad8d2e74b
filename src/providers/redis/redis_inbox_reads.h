// The Redis inbox's reads of many records and its purges (redis_inbox_store.h lists
// how each runs): what the store and its units of work share.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_INBOX_READS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_INBOX_READS_H_

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_script.h"

namespace docket::redis::detail {

class InboxReads {
 public:
  explicit InboxReads(Pool& pool);

  // Whether the record `key` exists: one TYPE (a key of another type there throws
  // InfrastructureError naming it: docket never reads it as a duplicate).
  bool exists(const std::string& key);
  // For each of `message_ids`, whether (tenant, consumer_id, id) is recorded: staged
  // (`staged(key)`) or stored, the stored ones read with one pipelined TYPE each in one
  // round trip.
  std::vector<bool> recorded(std::string_view tenant, std::string_view consumer_id,
                             std::span<const std::string> message_ids,
                             const std::function<bool(const std::string&)>& staged);
  // Deletes at most `limit` records processed before `cutoff` (one script run).
  std::size_t purge_batch(Timestamp cutoff, std::size_t limit);
  // Deletes at most `limit` records of `consumer_id` (of `*tenant`; every tenant's when
  // null).
  std::size_t purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                   std::size_t limit);

 private:
  Pool& pool_;
  Script purge_script_;
  std::string index_;
  std::string namespace_;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_INBOX_READS_H_
