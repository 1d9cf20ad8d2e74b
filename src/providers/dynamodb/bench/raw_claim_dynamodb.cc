#include "raw_claim_dynamodb.h"

#include "claim_workload.h"
#include "docket/claim_key.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_item.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
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
    : client_(dynamodb::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      table_(dynamodb::claim::claim_table_schema(client_.url()).name),
      handler_type_(handler_type),
      owner_(owner) {}

void RawClaimDynamoDb::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                             ClaimCycleCounts& counts) {
  using dynamodb::claim::EntryAddress;
  const ClaimKey key(TenantId::untenanted(), message_id, handler_type_);
  const keys::Key id = kit::inbox_entry_id(keys::Provider::kDynamoDb, key);
  const EntryAddress entry{.table = table_, .id = id.value};
  const dynamodb::Call update{
      .operation = "UpdateItem", .table = table_, .replay = dynamodb::Replay::kUnsafe};

  const Timestamp claimed_at = now();
  const Timestamp lease_until = claimed_at + kBenchClaimLease;
  const dynamodb::Call put{
      .operation = "PutItem", .table = table_, .replay = dynamodb::Replay::kUnsafe};
  dynamodb::Response claim = client_.call(
      put, dynamodb::claim::create_claimed_request(entry, key, owner_, claimed_at, lease_until));
  if (!claim.ok()) {
    // Read who holds it, as docket's store reads the returned old item, and take the
    // entry over where it is claimable.
    const ClaimEntry holder = dynamodb::claim::claim_entry_of(claim.error().item, kRawSide);
    if (!kit::claimable(holder, claimed_at)) {
      sink_ += static_cast<std::uint64_t>(holder.retry_count);
      ++counts.skipped;
      return;
    }
    claim = client_.call(
        update, dynamodb::claim::try_claim_request(entry, key, owner_, claimed_at, lease_until));
    if (!claim.ok()) {
      ++counts.skipped;
      return;
    }
    const dynamodb::ItemReader claimed(claim.body().at("Attributes"), kRawSide);
    sink_ += static_cast<std::uint64_t>(claimed.number(dynamodb::claim::kRetryCount) +
                                        claimed.number(dynamodb::claim::kLeaseUntil));
  }
  ++counts.claimed;
  run_effect(effect, message_id, counts);
  if (client_.call(update, dynamodb::claim::mark_processed_request(entry, owner_, now())).ok()) {
    ++counts.processed;
  }
}

}  // namespace docket::bench
