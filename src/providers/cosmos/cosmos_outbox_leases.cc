// The leases a Cosmos DB outbox store wrote (cosmos_outbox_leases.h).
#include "providers/cosmos/cosmos_outbox_leases.h"

#include <algorithm>
#include <map>
#include <utility>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_batch.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail::outbox {
namespace {

// How many times a batch is sent, each time without the operation that failed it: one
// lost lease costs the others one request more; a batch whose messages another relay
// took wholesale (two relays that read the same page) gives up after this many.
constexpr int kBatchAttempts = 3;

// What became of one conditional replace.
enum class Replaced { kApplied, kRefused, kUntried };

struct ReplaceResult {
  Replaced outcome = Replaced::kUntried;
  std::string etag;  // the item's new etag, when applied
};

// Sends each of `changes` (a message's new row over the message as read, under the etag
// read) in batches of one partition (at most 100 operations and kMaxBatchBytes each); a
// batch one of which was refused (412, or 404: gone) is sent again without it, at most
// kBatchAttempts times in all, and then its rest are left untried. A lone change goes as
// a point replace.
std::vector<ReplaceResult> replace_batched(const MessagePlace& place,
                                           std::span<const FoundMessage> changes,
                                           std::string_view what) {
  std::vector<ReplaceResult> results(changes.size());
  std::vector<nlohmann::json> operations;
  operations.reserve(changes.size());
  std::map<std::string_view, std::vector<std::size_t>> by_partition;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const FoundMessage& change = changes[i];
    operations.push_back({{"operationType", "Replace"},
                          {"id", change.row.record.id},
                          {"partitionKey", partition_key_header(change.partition)},
                          {"resourceBody", message_item(change.partition, change.row)},
                          {"ifMatch", change.etag}});
    by_partition[change.partition].push_back(i);
  }
  const auto send_chunk = [&](std::vector<std::size_t> pending) {
    for (int attempt = 0; attempt < kBatchAttempts && !pending.empty(); ++attempt) {
      if (pending.size() == 1) {
        const FoundMessage& change = changes[pending.front()];
        std::optional<std::string> etag =
            replace_item(place.client,
                         {.container = place.container,
                          .id = change.row.record.id,
                          .partition_key = change.partition},
                         operations[pending.front()]["resourceBody"], change.etag);
        results[pending.front()] = etag ? ReplaceResult{Replaced::kApplied, std::move(*etag)}
                                        : ReplaceResult{Replaced::kRefused, {}};
        return;
      }
      nlohmann::json batch = nlohmann::json::array();
      for (const std::size_t i : pending) {
        batch.push_back(operations[i]);
      }
      const std::string described = std::string(what) + " of " + std::to_string(pending.size()) +
                                    " messages in container '" + place.container + "'";
      BatchOutcome outcome =
          send_batch_etags(place.client, {.container = place.container,
                                          .partition = changes[pending.front()].partition,
                                          .operations = batch,
                                          .what = described,
                                          .store = place.store});
      if (!outcome.failure) {
        for (std::size_t k = 0; k < pending.size(); ++k) {
          results[pending[k]] = {Replaced::kApplied, std::move(outcome.etags[k])};
        }
        return;
      }
      const BatchFailure& failure = *outcome.failure;
      if (failure.status != 412 && failure.status != 404) {
        throw InfrastructureError(place.store + ": the " + described + " failed (HTTP " +
                                  std::to_string(failure.status) +
                                  (failure.message.empty() ? "" : ": " + failure.message) +
                                  "); nothing of it was written");
      }
      results[pending[failure.index]] = {Replaced::kRefused, {}};
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(failure.index));
    }
  };
  for (const auto& [partition, indexes] : by_partition) {
    std::vector<std::size_t> chunk;
    std::size_t bytes = 0;
    for (const std::size_t i : indexes) {
      const std::size_t size = operations[i].dump().size();
      if (!chunk.empty() &&
          (chunk.size() == kMaxBatchOperations || bytes + size > kMaxBatchBytes)) {
        send_chunk(std::exchange(chunk, {}));
        bytes = 0;
      }
      chunk.push_back(i);
      bytes += size;
    }
    send_chunk(std::move(chunk));
  }
  return results;
}

// About the bytes a remembered lease holds: the message's variable fields, and a
// kilobyte for the rest.
std::size_t remembered_bytes(const FoundMessage& message) {
  const OutboxRecord& record = message.row.record;
  std::size_t bytes = 1024 + record.payload.size() + message.partition.size() +
                      message.etag.size() + record.event_type.size();
  for (const MessageHeader& header : record.headers) {
    bytes += header.name.size() + header.value.size();
  }
  return bytes;
}

}  // namespace

std::vector<std::optional<OutboxRecord>> OutboxLeases::lease_each(
    const MessagePlace& place, std::span<const FoundMessage> candidates, std::string_view token,
    Timestamp now, Timestamp lease_until) {
  std::vector<FoundMessage> leased(candidates.begin(), candidates.end());
  for (FoundMessage& message : leased) {
    kit::lease(message.row, token, lease_until);
  }
  std::vector<ReplaceResult> written = replace_batched(place, leased, "lease batch");
  std::vector<std::optional<OutboxRecord>> result(leased.size());
  for (std::size_t i = 0; i < leased.size(); ++i) {
    // Untried (its batch failed on others each time): not leased now; the claim selects
    // past it, and it stays pending for the next claim.
    if (written[i].outcome != Replaced::kApplied) {
      continue;
    }
    result[i] = leased[i].row.record;
    leased[i].etag = std::move(written[i].etag);
    remember(std::move(leased[i]), token, kit::to_micros(lease_until), kit::to_micros(now));
  }
  return result;
}

std::vector<FoundMessage> OutboxLeases::complete_each(const MessagePlace& place,
                                                      std::span<const std::string> ids,
                                                      std::string_view token, Timestamp now,
                                                      std::vector<std::string>& unresolved) {
  std::vector<FoundMessage> completions;
  for (const std::string& id : ids) {
    if (std::optional<FoundMessage> leased = take(id, token)) {
      kit::complete(leased->row, now);
      completions.push_back(std::move(*leased));
    } else {
      unresolved.push_back(id);
    }
  }
  const std::vector<ReplaceResult> written =
      replace_batched(place, completions, "completion batch");
  std::vector<FoundMessage> marked;
  for (std::size_t i = 0; i < completions.size(); ++i) {
    if (written[i].outcome == Replaced::kApplied) {
      completions[i].etag = written[i].etag;
      marked.push_back(std::move(completions[i]));
    } else {
      unresolved.push_back(completions[i].row.record.id);
    }
  }
  return marked;
}

void OutboxLeases::forget(std::string_view id, std::string_view token) {
  static_cast<void>(take(std::string(id), token));
}

std::size_t OutboxLeases::size() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return leases_.size();
}

void OutboxLeases::remember(FoundMessage leased, std::string_view token, std::int64_t lease_until,
                            std::int64_t now_micros) {
  if (leased.row.record.payload.size() > kMaxRememberedPayload) {
    return;  // completed through the read, as a lease not remembered is
  }
  std::string id = leased.row.record.id;
  const std::size_t bytes = remembered_bytes(leased);
  Lease lease{.token = std::string(token),
              .message = std::move(leased),
              .lease_until = lease_until,
              .bytes = bytes};
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = leases_.find(id); found != leases_.end()) {
    bytes_ -= found->second.bytes;  // this store leased the message again: the newer
    leases_.erase(found);
  }
  const auto full = [&] {
    return leases_.size() >= kCapacity || bytes_ + lease.bytes > kMaxRememberedBytes;
  };
  if (full()) {
    std::erase_if(leases_, [&](const auto& entry) {
      if (entry.second.lease_until > now_micros) {
        return false;
      }
      bytes_ -= entry.second.bytes;
      return true;
    });
  }
  if (!full()) {
    bytes_ += lease.bytes;
    leases_.emplace(std::move(id), std::move(lease));
  }
}

std::optional<FoundMessage> OutboxLeases::take(const std::string& id, std::string_view token) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = leases_.find(id);
  if (found == leases_.end() || found->second.token != token) {
    return std::nullopt;
  }
  FoundMessage leased = std::move(found->second.message);
  bytes_ -= found->second.bytes;
  leases_.erase(found);
  return leased;
}

}  // namespace docket::cosmos::detail::outbox
