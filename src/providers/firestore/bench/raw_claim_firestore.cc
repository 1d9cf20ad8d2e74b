#include "raw_claim_firestore.h"

#include <utility>

#include "claim_workload.h"
#include "docket/claim_key.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::string_view kRawFirestoreSide = "raw Firestore claim baseline";

Timestamp firestore_now() {
  return kit::from_micros(now_micros());
}

}  // namespace

RawClaimFirestore::RawClaimFirestore(const std::string& url, std::string_view handler_type,
                                     std::string_view owner)
    : client_(firestore::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      collection_(client_.url().collection(firestore::claim::kCollection)),
      handler_type_(handler_type),
      owner_(owner) {}

RawClaimFirestore::Read RawClaimFirestore::read(const std::string& id) const {
  const std::optional<firestore::Document> document =
      firestore::get_document(client_, collection_, id);
  if (!document) {
    return {.entry = std::nullopt, .precondition = {.exists = false}};
  }
  return {.entry = firestore::claim::claim_entry_of(*document, kRawFirestoreSide),
          .precondition = {.update_time = document->update_time}};
}

std::optional<std::string> RawClaimFirestore::write(
    const std::string& id, const ClaimEntry& entry,
    const firestore::Precondition& precondition) const {
  const firestore::Write write{.collection = collection_,
                               .id = id,
                               .fields = firestore::claim::claim_fields(entry),
                               .precondition = precondition};
  firestore::CommitResult result =
      firestore::commit(client_, std::span<const firestore::Write>(&write, 1), kRawFirestoreSide);
  if (!result.applied) {
    return std::nullopt;
  }
  return std::move(result.update_times.at(0));
}

void RawClaimFirestore::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                              ClaimCycleCounts& counts) {
  const ClaimKey key(TenantId::untenanted(), message_id, handler_type_);
  const std::string id = kit::inbox_entry_id(keys::Provider::kFirestore, key).value;

  // A new entry is committed claimed without a read; refused, it is read and claimed.
  const Timestamp created_at = firestore_now();
  ClaimEntry entry = kit::new_claim_entry(key, created_at);
  kit::claim(entry, owner_, created_at, kBenchClaimLease);
  std::optional<std::string> claimed = write(id, entry, {.exists = false});
  if (!claimed) {
    Read claim = read(id);
    const Timestamp claimed_at = firestore_now();
    entry = claim.entry ? *claim.entry : kit::new_claim_entry(key, claimed_at);
    if (kit::claim(entry, owner_, claimed_at, kBenchClaimLease).outcome == ClaimOutcome::kClaimed) {
      claimed = write(id, entry, claim.precondition);
    }
    if (!claimed) {
      ++counts.skipped;
      return;
    }
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);

  // The mark starts from the claim's own write, as the store's does; refused, it reads.
  kit::mark_processed(entry, firestore_now());
  if (write(id, entry, {.update_time = std::move(*claimed)})) {
    ++counts.processed;
    return;
  }
  Read held = read(id);
  if (!held.entry || !kit::held_by(*held.entry, owner_)) {
    return;
  }
  kit::mark_processed(*held.entry, firestore_now());
  if (write(id, *held.entry, held.precondition)) {
    ++counts.processed;
  }
}

}  // namespace docket::bench
