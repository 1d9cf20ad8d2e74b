#include "cosmos_raw_claim.h"

#include "claim_workload.h"
#include "docket/core/uuid.h"
#include "docket/inbox/claim_key.h"
#include "providers/cosmos/cosmos_claim_item.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

namespace claim_item = cosmos::detail::claim;

constexpr std::string_view kRawClaimSide = "raw Cosmos DB claim baseline";

Timestamp raw_claim_now() {
  return kit::from_micros(now_micros());
}

}  // namespace

RawClaimCosmos::RawClaimCosmos(const std::string& url, std::string_view handler_type,
                               std::string_view owner)
    : rest_(url),
      container_(rest_.client().url().container(claim_item::kContainer)),
      handler_type_(handler_type),
      owner_(owner) {}

std::optional<RawClaimCosmos::Claimed> RawClaimCosmos::claim(const std::string& id,
                                                             const ClaimKey& key) {
  const ClaimToken token{.owner = owner_, .claim_id = Uuid::v7().to_string()};
  const Timestamp created_at = raw_claim_now();
  ClaimEntry created = kit::new_claim_entry(key, created_at);
  kit::claim(created, token, created_at, kBenchClaimLease);
  if (auto etag = rest_.create(container_, id, claim_item::claim_item(id, created))) {
    return Claimed{.entry = std::move(created), .etag = std::move(*etag)};
  }
  // Seen before: read who holds it and take it over where it is claimable.
  const std::optional<nlohmann::json> read = rest_.read(container_, id, id);
  if (!read) {
    return std::nullopt;  // gone meanwhile: another delivery's business
  }
  ClaimEntry entry = claim_item::claim_entry_of(*read, kRawClaimSide);
  const Timestamp now = raw_claim_now();
  if (kit::claim(entry, token, now, kBenchClaimLease).outcome != ClaimOutcome::kClaimed) {
    return std::nullopt;
  }
  auto etag = rest_.replace(container_, id, id, claim_item::claim_item(id, entry),
                            read->value("_etag", ""));
  if (!etag) {
    return std::nullopt;  // another claimer changed it since the read
  }
  return Claimed{.entry = std::move(entry), .etag = std::move(*etag)};
}

void RawClaimCosmos::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                           ClaimCycleCounts& counts) {
  const ClaimKey key(TenantId::untenanted(), message_id, handler_type_);
  const std::string id = kit::inbox_entry_id(keys::Provider::kCosmosDb, key).value;
  std::optional<Claimed> claimed = claim(id, key);
  if (!claimed) {
    ++counts.skipped;
    return;
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);
  kit::mark_processed(claimed->entry, raw_claim_now());
  if (rest_.replace(container_, id, id, claim_item::claim_item(id, claimed->entry),
                    claimed->etag)) {
    ++counts.processed;
  }
}

}  // namespace docket::bench
