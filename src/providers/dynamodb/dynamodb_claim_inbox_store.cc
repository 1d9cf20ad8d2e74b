// The claim inbox's state changes and its one-entry read (dynamodb_claim_inbox_store.h).
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"

#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_item.h"
#include "providers/dynamodb/dynamodb_claim_requests.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

using claim::EntryAddress;

EntryAddress address_of(const TableOnce& table, const keys::Key& id) {
  return {.table = table.name(), .id = id.value};
}

}  // namespace

DynamoDbClaimInboxStore::DynamoDbClaimInboxStore(std::string_view url, const Clock& clock)
    : client_(parse_store_url(url)),
      table_(claim::claim_table_schema(client_.url())),
      clock_(clock),
      store_("DynamoDB claim inbox (table '" + table_.name() + "' at " + client_.url().text + ")") {
}

StoreCapabilities DynamoDbClaimInboxStore::capabilities() const noexcept {
  // Never joins a handler's writes; every process that names the table shares it. The
  // cleanup's batches are index pages, each entry deleted by a request of its own, so
  // no commit limit bounds them.
  //
  // Leases are on the claimer's clock: DynamoDB has no clock of its own that a
  // condition expression can read, so every claimer stamps and compares leases with
  // its own `now`. A claimer whose clock runs S ahead takes over a lease S early, so a
  // lease must exceed the worst skew between claimers plus the handler's run
  // (issue 37).
  return {.joins_handler_writes = false,
          .interactive_transactions = false,
          .max_writes_per_commit = 0,
          .max_bytes_per_commit = 0,
          .max_bytes_per_record = kMaxItemBytes,
          .feed = FeedKind::kNone,
          .server_side_expiry = false,
          .shared_between_processes = true,
          .lease_clock = LeaseClock::kClaimer};
}

void DynamoDbClaimInboxStore::migrate() {
  table_.ensure(client_);
}

const Client& DynamoDbClaimInboxStore::ready() {
  table_.ensure(client_);
  return client_;
}

keys::Key DynamoDbClaimInboxStore::entry_id(const ClaimKey& key) const {
  keys::Key id = kit::inbox_entry_id(keys::Provider::kDynamoDb, key);
  check_key(table_.schema(), {{std::string(claim::kId), string_value(id.value)}});
  return id;
}

bool DynamoDbClaimInboxStore::conditional_write(std::string_view operation,
                                                const nlohmann::json& request) {
  const Response response = ready().call(
      {.operation = operation, .table = table_.name(), .replay = Replay::kUnsafe}, request);
  return response.ok();
}

ClaimResult DynamoDbClaimInboxStore::do_try_claim(const ClaimKey& key, const ClaimToken& token,
                                                  std::chrono::microseconds lease) {
  const keys::Key id = entry_id(key);
  const EntryAddress entry = address_of(table_, id);
  const Client& client = ready();
  const Timestamp now = clock_.now();
  // A message seen for the first time, most claims, is one PutItem of the claimed
  // entry. It is cheaper for the server than the UpdateItem below, which also takes
  // over an existing entry and is sent only when the entry that exists is claimable.
  const Response created =
      client.call({.operation = "PutItem", .table = table_.name(), .replay = Replay::kUnsafe},
                  claim::create_claimed_request(entry, key, token, now, now + lease));
  if (created.ok()) {
    return {.outcome = ClaimOutcome::kClaimed, .retry_count = 0, .lease_until = now + lease};
  }
  if (const ClaimEntry existing = refusing_entry(created.error().item, key);
      !kit::claimable(existing, now)) {
    return refusal(existing);
  }
  return take_over(key, id, token, now, now + lease);
}

ClaimResult DynamoDbClaimInboxStore::take_over(const ClaimKey& key, const keys::Key& id,
                                               const ClaimToken& token, Timestamp now,
                                               Timestamp lease_until) {
  const Response taken =
      ready().call({.operation = "UpdateItem", .table = table_.name(), .replay = Replay::kUnsafe},
                   claim::try_claim_request(address_of(table_, id), key, token, now, lease_until));
  if (!taken.ok()) {
    return refusal(refusing_entry(taken.error().item, key));
  }
  const ItemReader claimed(taken.body().at("Attributes"), store_);
  return {.outcome = ClaimOutcome::kClaimed,
          .retry_count = kit::claim_retry_count(claimed.number(claim::kRetryCount), store_),
          .lease_until = kit::from_micros(claimed.number(claim::kLeaseUntil))};
}

ClaimEntry DynamoDbClaimInboxStore::refusing_entry(const nlohmann::json& holder,
                                                   const ClaimKey& key) const {
  // The condition failed: the entry exists, and DynamoDB returned it as it was.
  if (!holder.is_object()) {
    throw InfrastructureError(store_ + ": the claim of message '" + key.message_id() +
                              "' was refused without the entry that refused it; is the server "
                              "a DynamoDB that supports ReturnValuesOnConditionCheckFailure?");
  }
  return claim::claim_entry_of(holder, store_);
}

ClaimResult DynamoDbClaimInboxStore::refusal(const ClaimEntry& entry) {
  const bool processed = entry.status == ClaimStatus::kProcessed;
  return {.outcome = processed ? ClaimOutcome::kAlreadyProcessed : ClaimOutcome::kHeldByAnother,
          .retry_count = entry.retry_count,
          .lease_until = processed ? std::nullopt : entry.lease_until};
}

bool DynamoDbClaimInboxStore::do_mark_processed(const ClaimKey& key, const ClaimToken& token) {
  const keys::Key id = entry_id(key);
  return conditional_write(
      "UpdateItem", claim::mark_processed_request(address_of(table_, id), token, clock_.now()));
}

bool DynamoDbClaimInboxStore::do_release(const ClaimKey& key, const ClaimToken& token) {
  const keys::Key id = entry_id(key);
  return conditional_write("UpdateItem",
                           claim::release_request(address_of(table_, id), token, clock_.now()));
}

bool DynamoDbClaimInboxStore::do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                                             const ClaimFailure& failure) {
  const keys::Key id = entry_id(key);
  return conditional_write("UpdateItem", claim::mark_failed_request(address_of(table_, id), token,
                                                                    clock_.now(), failure));
}

std::optional<Timestamp> DynamoDbClaimInboxStore::do_renew(const ClaimKey& key,
                                                           const ClaimToken& token,
                                                           std::chrono::microseconds lease) {
  const keys::Key id = entry_id(key);
  const Timestamp now = clock_.now();
  // Safe to send twice, unlike the other changes: its own first write leaves its
  // condition true and a second one writes the same.
  const Response renewed =
      ready().call({.operation = "UpdateItem", .table = table_.name(), .replay = Replay::kSafe},
                   claim::renew_request(address_of(table_, id), token, now, now + lease));
  if (!renewed.ok()) {
    return std::nullopt;
  }
  return now + lease;
}

bool DynamoDbClaimInboxStore::do_try_mark_processed(const ClaimKey& key) {
  const keys::Key id = entry_id(key);
  return conditional_write(
      "UpdateItem", claim::try_mark_processed_request(address_of(table_, id), key, clock_.now()));
}

bool DynamoDbClaimInboxStore::do_retry_now(const ClaimKey& key) {
  const keys::Key id = entry_id(key);
  return conditional_write("UpdateItem",
                           claim::retry_now_request(address_of(table_, id), clock_.now()));
}

std::optional<ClaimEntry> DynamoDbClaimInboxStore::do_find(const ClaimKey& key) {
  const keys::Key id = entry_id(key);
  const Response response =
      ready().call({.operation = "GetItem", .table = table_.name(), .replay = Replay::kSafe},
                   claim::get_request(address_of(table_, id)));
  const auto item = response.body().find("Item");
  if (item == response.body().end()) {
    return std::nullopt;
  }
  return claim::claim_entry_of(*item, store_);
}

}  // namespace docket::dynamodb::detail
