#include "inbox/lease_keeper.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace docket::inbox {
namespace {

enum class Renewal { kRenewed, kTakenOver, kFailed };

}  // namespace

LeaseKeeper::LeaseKeeper(ClaimInboxStore& store, std::chrono::microseconds lease,
                         std::chrono::microseconds keep_for)
    : store_(store), lease_(lease), keep_for_(keep_for) {}

LeaseKeeper::~LeaseKeeper() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

LeaseKeeper::Kept::Kept(Kept&& other) noexcept
    : keeper_(std::exchange(other.keeper_, nullptr)), id_(other.id_) {}

LeaseKeeper::Kept::~Kept() {
  if (keeper_ != nullptr) {
    keeper_->forget(id_);
  }
}

LeaseKeeper::Kept LeaseKeeper::keep(const ClaimKey& key, const ClaimToken& token,
                                    SteadyClock::time_point claimed_at) {
  const std::lock_guard lock(mutex_);
  const std::uint64_t id = ++next_id_;
  items_.emplace(id, Item{.key = key,
                          .token = token,
                          .next = claimed_at + lease_ / 3,
                          .until = claimed_at + keep_for_});
  if (!thread_.joinable()) {
    thread_ = std::thread([this] { renew_due(); });
  }
  changed_.notify_all();
  return Kept(this, id);
}

void LeaseKeeper::forget(std::uint64_t id) {
  const std::lock_guard lock(mutex_);
  items_.erase(id);
}

void LeaseKeeper::renew_due() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (items_.empty()) {
      changed_.wait(lock);
      continue;
    }
    const auto earliest =
        std::min_element(items_.begin(), items_.end(), [](const auto& a, const auto& b) {
          return a.second.next < b.second.next;
        })->second.next;
    if (SteadyClock::now() < earliest) {
      changed_.wait_until(lock, earliest);
      continue;
    }
    const SteadyClock::time_point sent = SteadyClock::now();
    std::vector<std::pair<std::uint64_t, Item>> due;
    for (auto it = items_.begin(); it != items_.end();) {
      if (it->second.until <= sent) {
        it = items_.erase(it);  // kept as long as it may be: its lease now runs out
      } else {
        if (it->second.next <= sent) {
          due.emplace_back(*it);
        }
        ++it;
      }
    }
    lock.unlock();
    std::vector<Renewal> renewals;
    renewals.reserve(due.size());
    for (const auto& [id, item] : due) {
      try {
        renewals.push_back(store_.renew(item.key, item.token, lease_) ? Renewal::kRenewed
                                                                      : Renewal::kTakenOver);
      } catch (const std::exception&) {
        renewals.push_back(Renewal::kFailed);  // tried again shortly, while it may help
      }
    }
    lock.lock();
    for (std::size_t i = 0; i < due.size(); ++i) {
      const auto it = items_.find(due[i].first);
      if (it == items_.end()) {
        continue;  // its handler ended meanwhile
      }
      switch (renewals[i]) {
        case Renewal::kRenewed:
          it->second.next = sent + lease_ / 3;
          break;
        case Renewal::kTakenOver:
          items_.erase(it);
          break;
        case Renewal::kFailed:
          it->second.next = SteadyClock::now() + lease_ / 10;
          break;
      }
    }
  }
}

}  // namespace docket::inbox
