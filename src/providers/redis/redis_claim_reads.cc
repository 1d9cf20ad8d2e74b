// The Redis claim inbox's reads (redis_claim_reads.h).
#include "providers/redis/redis_claim_reads.h"

#include <map>
#include <string_view>
#include <utility>

#include "providers/kit/claim_row.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_keyspace.h"

namespace docket::redis::detail {
namespace {

constexpr std::string_view kClaimReadsStore = "Redis claim inbox";
// Index members read per request while a listing filters.
constexpr std::size_t kClaimChunk = 500;

std::int64_t micros(const std::map<std::string, std::string>& fields, const char* name) {
  const auto it = fields.find(name);
  if (it == fields.end()) {
    return 0;
  }
  try {
    return std::stoll(it->second);
  } catch (const std::exception&) {
    throw InfrastructureError("a Redis claim inbox entry's " + std::string(name) + " is '" +
                              it->second + "', which docket did not write: remove the entry");
  }
}

std::optional<std::int64_t> optional_micros(const std::map<std::string, std::string>& fields,
                                            const char* name) {
  return fields.contains(name) ? std::optional(micros(fields, name)) : std::nullopt;
}

std::optional<std::string_view> optional_text(const std::map<std::string, std::string>& fields,
                                              const char* name) {
  const auto it = fields.find(name);
  return it == fields.end() ? std::nullopt : std::optional<std::string_view>(it->second);
}

ClaimEntry to_entry(const std::vector<std::string>& flat) {
  std::map<std::string, std::string> fields;
  for (std::size_t i = 0; i + 1 < flat.size(); i += 2) {
    fields[flat[i]] = flat[i + 1];
  }
  const kit::StoredClaimEntry stored{.tenant = fields["tenant"],
                                     .message_id = fields["message_id"],
                                     .handler_type = fields["handler_type"],
                                     .status = fields["status"],
                                     .retry_count = micros(fields, "retry_count"),
                                     .received_at = micros(fields, "received_at"),
                                     .updated_at = micros(fields, "updated_at"),
                                     .owner = optional_text(fields, "owner"),
                                     .claim_id = optional_text(fields, "claim_id"),
                                     .lease_until = optional_micros(fields, "lease_until"),
                                     .processed_at = optional_micros(fields, "processed_at"),
                                     .last_error = optional_text(fields, "last_error"),
                                     .next_attempt_at = optional_micros(fields, "next_attempt_at")};
  return kit::claim_entry(stored, kClaimReadsStore);
}

}  // namespace

ClaimReads::ClaimReads(Pool& pool)
    : pool_(pool),
      keys_(pool.url().key(kClaimKeys)),
      processed_(pool.url().key(kClaimProcessed)),
      failed_(pool.url().key(kClaimFailed)) {}

std::vector<ClaimEntry> ClaimReads::read(const std::vector<std::string>& ids) {
  std::vector<ClaimEntry> out;
  if (ids.empty()) {
    return out;
  }
  std::vector<Command> reads;
  reads.reserve(ids.size());
  for (const std::string& id : ids) {
    reads.push_back({"HGETALL", claim_entry_key(pool_.url(), id)});
  }
  const std::vector<Reply> replies = pool_.pipeline(reads, Replay::kSafe);
  for (const Reply& reply : replies) {
    reply.ok();
    if (reply.size() == 0) {
      continue;  // deleted since the index was read
    }
    std::vector<std::string> flat;
    for (std::size_t i = 0; i < reply.size(); ++i) {
      flat.push_back(reply.string_at(i).value_or(""));
    }
    out.push_back(to_entry(flat));
  }
  return out;
}

std::optional<ClaimEntry> ClaimReads::find(const std::string& id) {
  std::vector<ClaimEntry> found = read({id});
  return found.empty() ? std::nullopt : std::optional(std::move(found.front()));
}

std::vector<ClaimEntry> ClaimReads::failed_due(std::int64_t now, std::uint32_t max_retries,
                                               std::size_t limit) {
  std::vector<ClaimEntry> due;
  for (std::size_t offset = 0; due.size() < limit; offset += kClaimChunk) {
    const Reply page = pool_.run({"ZRANGEBYSCORE", failed_, "-inf", std::to_string(now), "LIMIT",
                                  std::to_string(offset), std::to_string(kClaimChunk)},
                                 Replay::kSafe);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < page.ok().size(); ++i) {
      ids.push_back(*page.string_at(i));
    }
    for (ClaimEntry& entry : read(ids)) {
      if (entry.status == ClaimStatus::kFailed && entry.retry_count < max_retries &&
          due.size() < limit) {
        due.push_back(std::move(entry));
      }
    }
    if (ids.size() < kClaimChunk) {
      break;
    }
  }
  return due;
}

ClaimCounts ClaimReads::counts(const std::optional<TenantId>& tenant, std::int64_t now) {
  ClaimCounts counts;
  std::string low = "-";
  for (;;) {
    const Reply page = pool_.run(
        {"ZRANGEBYLEX", keys_, low, "+", "LIMIT", "0", std::to_string(kClaimChunk)}, Replay::kSafe);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < page.ok().size(); ++i) {
      ids.push_back(*page.string_at(i));
    }
    for (const ClaimEntry& entry : read(ids)) {
      if (tenant && entry.key.tenant() != *tenant) {
        continue;
      }
      const bool due = entry.status == ClaimStatus::kFailed &&
                       kit::to_micros(entry.next_attempt_at.value_or(Timestamp{})) <= now;
      kit::count_claim_entry(counts, entry.status, entry.received_at, due);
    }
    if (ids.size() < kClaimChunk) {
      return counts;
    }
    low = "(" + ids.back();
  }
}

ClaimPage ClaimReads::entries(const ClaimPageRequest& request) {
  ClaimPage page;
  std::string low = request.after ? "(" + claim_entry_id(*request.after) : "-";
  bool more = false;
  while (!more) {
    const Reply chunk = pool_.run(
        {"ZRANGEBYLEX", keys_, low, "+", "LIMIT", "0", std::to_string(kClaimChunk)}, Replay::kSafe);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < chunk.ok().size(); ++i) {
      ids.push_back(*chunk.string_at(i));
    }
    for (ClaimEntry& entry : read(ids)) {
      if ((request.tenant && entry.key.tenant() != *request.tenant) ||
          (request.status && entry.status != *request.status)) {
        continue;
      }
      if (page.entries.size() == request.limit) {
        more = true;
        break;
      }
      page.entries.push_back(std::move(entry));
    }
    if (ids.size() < kClaimChunk) {
      break;
    }
    low = "(" + ids.back();
  }
  if (more) {
    page.next = page.entries.back().key;
  }
  return page;
}

std::uint64_t ClaimReads::count_cleanable(const std::optional<TenantId>& tenant,
                                          std::int64_t cutoff) {
  const std::string below = "(" + std::to_string(cutoff);
  if (!tenant) {
    return static_cast<std::uint64_t>(
        pool_.run({"ZCOUNT", processed_, "-inf", below}, Replay::kSafe).ok().integer());
  }
  std::uint64_t count = 0;
  for (std::size_t offset = 0;; offset += kClaimChunk) {
    const Reply page = pool_.run({"ZRANGEBYSCORE", processed_, "-inf", below, "LIMIT",
                                  std::to_string(offset), std::to_string(kClaimChunk)},
                                 Replay::kSafe);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < page.ok().size(); ++i) {
      ids.push_back(*page.string_at(i));
    }
    for (const ClaimEntry& entry : read(ids)) {
      count += entry.status == ClaimStatus::kProcessed && entry.key.tenant() == *tenant ? 1 : 0;
    }
    if (ids.size() < kClaimChunk) {
      return count;
    }
  }
}

}  // namespace docket::redis::detail
