#include "dynamodb_raw_claim.h"

#include <utility>

#include "claim_workload.h"
#include "docket/core/uuid.h"
#include "docket/inbox/claim_key.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_item.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_conditional_writes.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/key_bridge.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::string_view kRawSide = "raw DynamoDB claim baseline";

Timestamp now() {
  return kit::from_micros(now_micros());
}

}  // namespace

RawClaimDynamoDb::RawClaimDynamoDb(const std::string& url, std::string_view handler_type,
                                   std::string_view owner)
    : client_(dynamodb::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      table_(dynamodb::detail::claim::claim_table_schema(client_.url()).name),
      handler_type_(handler_type),
      owner_(owner) {}

RawClaimDynamoDb::Entry RawClaimDynamoDb::entry_of(std::string_view message_id) const {
  ClaimKey key(TenantId::untenanted(), message_id, handler_type_);
  keys::Key id = kit::inbox_entry_id(keys::Provider::kDynamoDb, key);
  return {std::move(key), std::move(id)};
}

ClaimToken RawClaimDynamoDb::new_token() const {
  return {.owner = owner_, .claim_id = Uuid::v7().to_string()};
}

bool RawClaimDynamoDb::claim(const Entry& entry, const ClaimToken& token, Timestamp claimed_at,
                             Timestamp lease_until) {
  const dynamodb::detail::Call put{
      .operation = "PutItem", .table = table_, .replay = dynamodb::detail::Replay::kUnsafe};
  const dynamodb::detail::Response created =
      client_.call(put, dynamodb::detail::claim::create_claimed_request(
                            {table_, entry.id.value}, entry.key, token, claimed_at, lease_until));
  if (created.ok()) {
    return true;
  }
  // Read who holds it, as docket's store reads the returned old item, and take the
  // entry over where it is claimable.
  const ClaimEntry holder = dynamodb::detail::claim::claim_entry_of(created.error().item, kRawSide);
  if (!kit::claimable(holder, claimed_at)) {
    sink_ += static_cast<std::uint64_t>(holder.retry_count);
    return false;
  }
  return take_over(entry, token, claimed_at, lease_until);
}

bool RawClaimDynamoDb::take_over(const Entry& entry, const ClaimToken& token, Timestamp claimed_at,
                                 Timestamp lease_until) {
  const dynamodb::detail::Response taken = client_.call(
      {.operation = "UpdateItem", .table = table_, .replay = dynamodb::detail::Replay::kUnsafe},
      dynamodb::detail::claim::try_claim_request({table_, entry.id.value}, entry.key, token,
                                                 claimed_at, lease_until));
  if (!taken.ok()) {
    return false;
  }
  const dynamodb::detail::ItemReader claimed(taken.body().at("Attributes"), kRawSide);
  sink_ += static_cast<std::uint64_t>(claimed.number(dynamodb::detail::claim::kRetryCount) +
                                      claimed.number(dynamodb::detail::claim::kLeaseUntil));
  return true;
}

bool RawClaimDynamoDb::mark(const Entry& entry, const ClaimToken& token) {
  return client_
      .call(
          {.operation = "UpdateItem", .table = table_, .replay = dynamodb::detail::Replay::kUnsafe},
          dynamodb::detail::claim::mark_processed_request({table_, entry.id.value}, token, now()))
      .ok();
}

void RawClaimDynamoDb::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                             ClaimCycleCounts& counts) {
  const Entry entry = entry_of(message_id);
  const ClaimToken token = new_token();
  const Timestamp claimed_at = now();
  if (!claim(entry, token, claimed_at, claimed_at + kBenchClaimLease)) {
    ++counts.skipped;
    return;
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);
  if (mark(entry, token)) {
    ++counts.processed;
  }
}

void RawClaimDynamoDb::cycle_batch(std::span<const std::string_view> message_ids,
                                   ClaimEffectWriter* effect, ClaimCycleCounts& counts) {
  std::vector<Entry> entries;
  std::vector<ClaimToken> tokens;
  entries.reserve(message_ids.size());
  tokens.reserve(message_ids.size());
  for (const std::string_view message_id : message_ids) {
    entries.push_back(entry_of(message_id));
    tokens.push_back(new_token());
  }
  const Timestamp claimed_at = now();
  const Timestamp lease_until = claimed_at + kBenchClaimLease;
  std::vector<nlohmann::json> puts;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    puts.push_back({{"Put", dynamodb::detail::claim::create_claimed_request(
                                {table_, entries[i].id.value}, entries[i].key, tokens[i],
                                claimed_at, lease_until)}});
  }
  std::vector<std::size_t> claimable;
  std::vector<bool> claimed = dynamodb::detail::apply_where_conditions_hold(
      client_, table_, kRawSide, puts, [&](std::size_t i, const nlohmann::json& old) {
        const ClaimEntry holder = dynamodb::detail::claim::claim_entry_of(old, kRawSide);
        if (kit::claimable(holder, claimed_at)) {
          claimable.push_back(i);
        } else {
          sink_ += static_cast<std::uint64_t>(holder.retry_count);
        }
      });
  for (const std::size_t i : claimable) {
    claimed[i] = take_over(entries[i], tokens[i], claimed_at, lease_until);
  }
  std::vector<nlohmann::json> marks;
  const Timestamp marked_at = now();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!claimed[i]) {
      ++counts.skipped;
      continue;
    }
    ++counts.claimed;
    run_effect(effect, message_ids[i], counts);
    marks.push_back({{"Update", dynamodb::detail::claim::mark_processed_request(
                                    {table_, entries[i].id.value}, tokens[i], marked_at)}});
  }
  if (marks.empty()) {
    return;
  }
  for (const bool marked :
       dynamodb::detail::apply_where_conditions_hold(client_, table_, kRawSide, marks)) {
    counts.processed += marked ? 1 : 0;
  }
}

}  // namespace docket::bench
