#include "firestore_raw_claim.h"

#include <utility>
#include <vector>

#include "claim_workload.h"
#include "docket/core/uuid.h"
#include "docket/inbox/claim_key.h"
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
    : client_(firestore::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      collection_(client_.url().collection(firestore::detail::claim::kCollection)),
      handler_type_(handler_type),
      owner_(owner) {}

RawClaimFirestore::Read RawClaimFirestore::read(const std::string& id) const {
  const std::optional<firestore::detail::Document> document =
      firestore::detail::get_document(client_, collection_, id);
  if (!document) {
    return {.entry = std::nullopt, .precondition = {.exists = false}};
  }
  return {.entry = firestore::detail::claim::claim_entry_of(*document, kRawFirestoreSide),
          .precondition = {.update_time = document->update_time}};
}

std::optional<std::string> RawClaimFirestore::write(
    const std::string& id, const ClaimEntry& entry,
    const firestore::detail::Precondition& precondition) const {
  const firestore::detail::Write write{.collection = collection_,
                                       .id = id,
                                       .fields = firestore::detail::claim::claim_fields(entry),
                                       .precondition = precondition};
  firestore::detail::CommitResult result = firestore::detail::commit(
      client_, std::span<const firestore::detail::Write>(&write, 1), kRawFirestoreSide);
  if (!result.applied) {
    return std::nullopt;
  }
  return std::move(result.update_times.at(0));
}

ClaimToken RawClaimFirestore::new_token() const {
  return {.owner = owner_, .claim_id = Uuid::v7().to_string()};
}

std::optional<std::string> RawClaimFirestore::claim_existing(const ClaimKey& key,
                                                             const std::string& id,
                                                             const ClaimToken& token,
                                                             ClaimEntry& entry) const {
  Read claim = read(id);
  const Timestamp claimed_at = firestore_now();
  entry = claim.entry ? *claim.entry : kit::new_claim_entry(key, claimed_at);
  if (kit::claim(entry, token, claimed_at, kBenchClaimLease).outcome != ClaimOutcome::kClaimed) {
    return std::nullopt;
  }
  return write(id, entry, claim.precondition);
}

bool RawClaimFirestore::mark_read(const std::string& id, const ClaimToken& token) const {
  Read held = read(id);
  if (!held.entry || !kit::held_by(*held.entry, token)) {
    return false;
  }
  kit::mark_processed(*held.entry, firestore_now());
  return write(id, *held.entry, held.precondition).has_value();
}

void RawClaimFirestore::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                              ClaimCycleCounts& counts) {
  const ClaimKey key(TenantId::untenanted(), message_id, handler_type_);
  const std::string id = kit::inbox_entry_id(keys::Provider::kFirestore, key).value;

  // A new entry is committed claimed without a read; refused, it is read and claimed.
  const ClaimToken token = new_token();
  const Timestamp created_at = firestore_now();
  ClaimEntry entry = kit::new_claim_entry(key, created_at);
  kit::claim(entry, token, created_at, kBenchClaimLease);
  std::optional<std::string> claimed = write(id, entry, {.exists = false});
  if (!claimed) {
    claimed = claim_existing(key, id, token, entry);
  }
  if (!claimed) {
    ++counts.skipped;
    return;
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);

  // The mark starts from the claim's own write, as the store's does; refused, it reads.
  kit::mark_processed(entry, firestore_now());
  if (write(id, entry, {.update_time = std::move(*claimed)}) || mark_read(id, token)) {
    ++counts.processed;
  }
}

void RawClaimFirestore::cycle_batch(std::span<const std::string_view> message_ids,
                                    ClaimEffectWriter* effect, ClaimCycleCounts& counts) {
  // One batchWrite of the creates; each refused entry read and claimed on its own.
  std::vector<ClaimKey> keys;
  std::vector<ClaimToken> tokens;
  std::vector<ClaimEntry> entries;
  std::vector<firestore::detail::Write> writes;
  const Timestamp created_at = firestore_now();
  for (const std::string_view message_id : message_ids) {
    const ClaimKey& key = keys.emplace_back(TenantId::untenanted(), message_id, handler_type_);
    const ClaimToken& token = tokens.emplace_back(new_token());
    ClaimEntry& entry = entries.emplace_back(kit::new_claim_entry(key, created_at));
    kit::claim(entry, token, created_at, kBenchClaimLease);
    writes.push_back({.collection = collection_,
                      .id = kit::inbox_entry_id(keys::Provider::kFirestore, key).value,
                      .fields = firestore::detail::claim::claim_fields(entry),
                      .precondition = {.exists = false}});
  }
  std::vector<std::optional<std::string>> claimed =
      firestore::detail::write_each(client_, writes, kRawFirestoreSide);
  std::vector<firestore::detail::Write> marks;
  std::vector<std::size_t> marked_at;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!claimed[i]) {
      claimed[i] = claim_existing(keys[i], writes[i].id, tokens[i], entries[i]);
    }
    if (!claimed[i]) {
      ++counts.skipped;
      continue;
    }
    ++counts.claimed;
    run_effect(effect, message_ids[i], counts);
  }
  // One batchWrite of the marks, each under its claim's update time; refused, read.
  const Timestamp marked_time = firestore_now();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (claimed[i]) {
      kit::mark_processed(entries[i], marked_time);
      marks.push_back({.collection = collection_,
                       .id = writes[i].id,
                       .fields = firestore::detail::claim::claim_fields(entries[i]),
                       .precondition = {.update_time = std::move(*claimed[i])}});
      marked_at.push_back(i);
    }
  }
  if (marks.empty()) {
    return;
  }
  const std::vector<std::optional<std::string>> done =
      firestore::detail::write_each(client_, marks, kRawFirestoreSide);
  for (std::size_t m = 0; m < marks.size(); ++m) {
    if (done[m] || mark_read(marks[m].id, tokens[marked_at[m]])) {
      ++counts.processed;
    }
  }
}

}  // namespace docket::bench
