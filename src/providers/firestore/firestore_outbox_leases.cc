// The leases a Firestore outbox store wrote (firestore_outbox_leases.h).
#include "providers/firestore/firestore_outbox_leases.h"

#include <algorithm>
#include <utility>

#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_outbox_document.h"
#include "providers/kit/time_codec.h"

namespace docket::firestore::detail {
namespace {

// write_each over `writes` in batchWrites of at most kMaxWritesPerCommit.
std::vector<std::optional<std::string>> write_each_chunked(const Client& client,
                                                           std::span<const Write> writes,
                                                           std::string_view target) {
  std::vector<std::optional<std::string>> written;
  written.reserve(writes.size());
  for (std::size_t from = 0; from < writes.size(); from += kMaxWritesPerCommit) {
    const std::size_t count = std::min(kMaxWritesPerCommit, writes.size() - from);
    for (auto& result : write_each(client, writes.subspan(from, count), target)) {
      written.push_back(std::move(result));
    }
  }
  return written;
}

}  // namespace

std::vector<bool> OutboxLeases::lease_each(const Client& client, std::span<const Write> leases,
                                           std::string_view token, Timestamp now,
                                           Timestamp lease_until, std::string_view target) {
  std::vector<std::optional<std::string>> written = write_each_chunked(client, leases, target);
  std::vector<bool> applied(leases.size(), false);
  for (std::size_t i = 0; i < leases.size(); ++i) {
    if (written[i]) {
      applied[i] = true;
      remember(leases[i].id,
               Lease{.token = std::string(token),
                     .update_time = std::move(*written[i]),
                     .lease_until = kit::to_micros(lease_until)},
               kit::to_micros(now));
    }
  }
  return applied;
}

std::size_t OutboxLeases::complete_each(const Client& client, std::string_view collection,
                                        std::span<const std::string> ids, std::string_view token,
                                        Timestamp now, std::string_view target,
                                        std::vector<std::string>& unresolved) {
  std::vector<Write> completions;
  for (const std::string& id : ids) {
    if (std::optional<std::string> update_time = take(id, token)) {
      completions.push_back(outbox::completion_write(collection, id, now, std::move(*update_time)));
    } else {
      unresolved.push_back(id);
    }
  }
  std::size_t marked = 0;
  const std::vector<std::optional<std::string>> written =
      write_each_chunked(client, completions, target);
  for (std::size_t i = 0; i < completions.size(); ++i) {
    if (written[i]) {
      ++marked;
    } else {
      unresolved.push_back(completions[i].id);
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

void OutboxLeases::remember(const std::string& id, Lease lease, std::int64_t now_micros) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (const auto found = leases_.find(id); found != leases_.end()) {
    found->second = std::move(lease);  // this store leased the message again: the newer
    return;
  }
  if (leases_.size() >= kCapacity) {
    std::erase_if(leases_,
                  [&](const auto& entry) { return entry.second.lease_until <= now_micros; });
  }
  if (leases_.size() < kCapacity) {
    leases_.emplace(id, std::move(lease));
  }
}

std::optional<std::string> OutboxLeases::take(const std::string& id, std::string_view token) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = leases_.find(id);
  if (found == leases_.end() || found->second.token != token) {
    return std::nullopt;
  }
  std::string update_time = std::move(found->second.update_time);
  leases_.erase(found);
  return update_time;
}

}  // namespace docket::firestore::detail
