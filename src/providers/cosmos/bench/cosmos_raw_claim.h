// The raw limit of the claim inbox on Cosmos DB: what a claim cycle needs, sent directly
// through the provider's client (cosmos_raw_rest.h), the fastest way the service allows.
//
// A claim is one point create of the entry's item (each entry is a partition of its own
// in {prefix}docket_claim_inbox), claimed by a fresh UUIDv7 claim id of this session's
// owner; a 409 reads the item and, where it is claimable (kit/claim_transition.h),
// replaces it with the claim under If-Match of the etag read. The mark is one replace
// under If-Match of the etag the claim's write returned: no read, as no other claimer can
// have changed the item without changing its etag. Items have the shape docket's store
// writes (cosmos_claim_item.h), ids composed by src/keys, so the checks count both sides
// alike. "now" is read from the system clock per request, as docket's store does.
//
// Thread-safety: one session per thread, each with its own client and connections.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_CLAIM_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_CLAIM_H_

#include <optional>
#include <string>
#include <string_view>

#include "claim_session.h"
#include "cosmos_raw_rest.h"
#include "docket/inbox/claim_inbox_store.h"

namespace docket::bench {

class RawClaimCosmos final : public ClaimSession {
 public:
  // `url`: the raw side's store URL (its claim container made already).
  RawClaimCosmos(const std::string& url, std::string_view handler_type, std::string_view owner);

  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;

 private:
  // The claimed entry and the etag its write returned.
  struct Claimed {
    ClaimEntry entry;
    std::string etag;
  };
  // Claims the entry `id` of `key`; nullopt where another holds it or it is processed.
  std::optional<Claimed> claim(const std::string& id, const ClaimKey& key);

  RawRest rest_;
  std::string container_;
  std::string handler_type_;
  std::string owner_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_CLAIM_H_
