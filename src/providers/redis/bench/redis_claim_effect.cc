#include "redis_claim_effect.h"

#include <set>

#include "docket/core/uuid.h"

namespace docket::bench {
namespace {

std::string raw_claim_effects_prefix(const RawRedis& db, std::string_view run_id) {
  return db.url().key(kClaimEffectsTable) + ":" + std::string(run_id) + ":";
}

}  // namespace

ClaimEffectRedis::ClaimEffectRedis(const std::string& url, std::string_view run_id)
    : run_id_(run_id), db_(url, RawRedis::Counting::kUncounted) {
  key_prefix_ = raw_claim_effects_prefix(db_, run_id_);
}

void ClaimEffectRedis::write(std::string_view message_id) {
  const std::string key = key_prefix_ + Uuid::v7().to_string();
  db_.run({"HSET", key, "run_id", run_id_, "message_id", message_id, "body", kClaimEffectBody});
}

void count_redis_claim_effects(const std::string& url, std::string_view run_id, ClaimRows& rows) {
  RawRedis db(url, RawRedis::Counting::kUncounted);
  std::set<std::string, std::less<>> messages;
  db.scan(glob_escape(raw_claim_effects_prefix(db, run_id)) + "*", [&](const redisReply& keys) {
    for (std::size_t k = 0; k < keys.elements; ++k) {
      const std::array<std::string_view, 3> get{"HGET", reply_text(*keys.element[k]), "message_id"};
      db.append(get);
    }
    for (const RawReply& id : db.read(keys.elements)) {
      ++rows.effects;
      messages.emplace(reply_text(*id));
    }
  });
  rows.effect_messages += static_cast<std::int64_t>(messages.size());
}

}  // namespace docket::bench
