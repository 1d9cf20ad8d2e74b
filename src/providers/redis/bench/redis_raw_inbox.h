// The raw limit of `docket bench inbox` on Redis: the same effects as docket's
// dispatcher and Redis inbox store (per distinct message a dedup record, its entry in
// the processed index and the handler's effect key, all or nothing; nothing for a
// duplicate), sent directly through hiredis in the fastest shape Redis allows:
//   a delivery or a batch is ONE EVALSHA of a script loaded once per connection, which
//   checks each message's dedup record (EXISTS) and writes the record (HSET, the
//   fields docket writes), its index entry (ZADD) and the effect (SET) when absent;
//   Redis runs a script whole, so a concurrent duplicate finds the record either
//   absent or written, never half;
//   under DedupCheck::kBeforeHandlers, as docket's store does, the dedup records are
//   read first, one pipelined EXISTS per message in one round trip, and the messages
//   recorded already are skipped without the script (none left: no script).
// So a delivery is one round trip at commit, two with the check before the handlers
// (a duplicate: one). The keys are those of redis_keyspace.h under the side's prefix;
// the effect is P docket_bench_effects:{consumer id}:{message id}, the key docket's
// bench handler inserts, so the checks count both sides alike.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_INBOX_H_
#define DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_INBOX_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/inbox/inbox_options.h"
#include "inbox_session.h"
#include "redis_raw.h"

namespace docket::bench {

// Under the side's prefix: the effect keys of inbox_workload.h's handler.
inline constexpr std::string_view kRedisEffectsNamespace = "docket_bench_effects:";

// The effect key of `message_id` for `consumer_id` under `prefix`.
std::string redis_effect_key(std::string_view prefix, std::string_view consumer_id,
                             std::string_view message_id);

class RawInboxRedis final : public InboxSession {
 public:
  // `url`: the raw side's Redis store URL (its prefix the side's).
  RawInboxRedis(const std::string& url, std::string_view consumer_id, DedupCheck dedup);

  void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
  void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

 private:
  std::string consumer_id_;
  DedupCheck dedup_;
  RawRedis db_;
  std::string sha_;
  std::string index_key_;
  std::vector<std::string> keys_;   // per delivery: dedup key, member, effect key (reused)
  std::vector<std::string> texts_;  // per delivery: occurred_at (reused)
  std::vector<std::string_view> args_;
};

// The commit-latency limit of the server: one SET of a fresh key per call (a round
// trip and, under appendfsync always, an fsync each) on the raw side.
class CommitProbeRedis final : public CommitProbe {
 public:
  explicit CommitProbeRedis(const std::string& url);
  void commit_one(std::string_view id) override;

 private:
  RawRedis db_;
  std::string key_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_INBOX_H_
