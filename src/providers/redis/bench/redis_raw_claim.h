// The raw limit of `docket bench claim` on Redis: a claim cycle's effects as docket's
// Redis claim inbox store makes them (the entry hash P inbox:{tenant}:{message}:{handler
// type} with kit::StoredClaimEntry's fields, its member in the key index on creation and
// in the processed index once processed; leases on the server's clock, TIME), sent
// directly through hiredis, each change ONE EVALSHA of a script loaded once:
//   claim: creates the entry when missing and leases it to the owner in one HSET,
//          unless it is processed or held by a live lease (a skip);
//   mark:  where the entry is still held by this claim, processed (HSET, HDEL of the
//          lease, ZADD to the processed index).
// A batch pipelines its claims in one round trip and its marks in another, as docket's
// try_claim_batch and mark_processed_batch do. Docket's entry script also refuses keys
// of another type in its prefix and keeps the failed index; neither changes what a
// bench cycle writes, so the raw scripts leave them out.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_CLAIM_H_
#define DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_CLAIM_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claim_session.h"
#include "redis_raw.h"

namespace docket::bench {

class RawClaimRedis final : public ClaimSession {
 public:
  // `url`: the raw side's Redis store URL.
  RawClaimRedis(const std::string& url, std::string_view handler_type, std::string_view owner);

  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;
  void cycle_batch(std::span<const std::string_view> message_ids, ClaimEffectWriter* effect,
                   ClaimCycleCounts& counts) override;

 private:
  // Queues the claim of `message_id` under a new claim id; keeps its key, id and claim
  // id in the slot `slot` of the reused buffers.
  void append_claim(std::size_t slot, std::string_view message_id);
  void append_mark(std::size_t slot);

  std::string handler_type_;
  std::string owner_;
  RawRedis db_;
  std::string claim_sha_;
  std::string mark_sha_;
  std::string keys_index_;
  std::string processed_index_;
  std::string lease_micros_;
  std::uint64_t claims_ = 0;
  std::vector<std::string> slots_;  // per message: key, id, claim id (reused)
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_CLAIM_H_
