// The memory ClaimInboxStore: entries in the database's state, every operation one
// critical section under its lock, so each is atomic exactly as the SPI requires.
#include <algorithm>

#include "docket/memory/claim_inbox_store.h"
#include "providers/kit/claim_row.h"
#include "providers/kit/claim_transition.h"
#include "providers/memory/memory_database.h"
#include "providers/memory/memory_database_access.h"

namespace docket::memory {
namespace {

using Claims = std::map<ClaimKey, ClaimEntry>;

// The entry under `token`'s claim, or nullptr.
ClaimEntry* held_by(Claims& claims, const ClaimKey& key, const ClaimToken& token) {
  const auto it = claims.find(key);
  return it == claims.end() || !kit::held_by(it->second, token) ? nullptr : &it->second;
}

// One process: its leases are on the machine's clock (kit::machine_now).
StoreCapabilities memory_capabilities() {
  StoreCapabilities capabilities;
  capabilities.lease_clock = LeaseClock::kStore;
  return capabilities;
}

class MemoryClaimInboxStore final : public ClaimInboxStore {
 public:
  explicit MemoryClaimInboxStore(std::shared_ptr<detail::Database> database)
      : database_(std::move(database)) {}

  std::string_view provider_name() const noexcept override { return "memory"; }
  StoreCapabilities capabilities() const noexcept override { return memory_capabilities(); }
  void migrate() override {}

 protected:
  ClaimResult do_try_claim(const ClaimKey& key, const ClaimToken& token,
                           std::chrono::microseconds lease) override {
    const Timestamp now = now_();
    ClaimResult result;
    database_->write([&](detail::State& state) {
      auto it = state.claims.find(key);
      if (it == state.claims.end()) {
        it = state.claims.emplace(key, kit::new_claim_entry(key, now)).first;
      }
      result = kit::claim(it->second, token, now, lease);
    });
    return result;
  }

  bool do_mark_processed(const ClaimKey& key, const ClaimToken& token) override {
    return change_held(key, token, kit::mark_processed);
  }

  bool do_release(const ClaimKey& key, const ClaimToken& token) override {
    return change_held(key, token, kit::release);
  }

  bool do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                      const ClaimFailure& failure) override {
    return change_held(key, token, [&](ClaimEntry& entry, Timestamp now) {
      kit::mark_failed(entry, failure, now);
    });
  }

  std::optional<Timestamp> do_renew(const ClaimKey& key, const ClaimToken& token,
                                    std::chrono::microseconds lease) override {
    std::optional<Timestamp> renewed;
    change_held(key, token,
                [&](ClaimEntry& entry, Timestamp now) { renewed = kit::renew(entry, now, lease); });
    return renewed;
  }

  bool do_try_mark_processed(const ClaimKey& key) override {
    const Timestamp now = now_();
    bool changed = false;
    database_->write([&](detail::State& state) {
      auto it = state.claims.find(key);
      if (it == state.claims.end()) {
        it = state.claims.emplace(key, kit::new_claim_entry(key, now)).first;
      } else if (it->second.status == ClaimStatus::kProcessed) {
        return;
      }
      kit::mark_processed(it->second, now);
      changed = true;
    });
    return changed;
  }

  bool do_retry_now(const ClaimKey& key) override {
    const Timestamp now = now_();
    bool changed = false;
    database_->write([&](detail::State& state) {
      if (const auto it = state.claims.find(key); it != state.claims.end()) {
        changed = kit::retry_now(it->second, now);
      }
    });
    return changed;
  }

  std::optional<ClaimEntry> do_find(const ClaimKey& key) override {
    std::optional<ClaimEntry> found;
    database_->read([&](const detail::State& state) {
      if (const auto it = state.claims.find(key); it != state.claims.end()) {
        found = it->second;
      }
    });
    return found;
  }

  std::vector<ClaimEntry> do_failed_due(std::uint32_t max_retries, std::size_t limit) override {
    const Timestamp now = now_();
    std::vector<ClaimEntry> due;
    database_->read([&](const detail::State& state) {
      for (const auto& [key, entry] : state.claims) {
        if (entry.status == ClaimStatus::kFailed && *entry.next_attempt_at <= now &&
            entry.retry_count < max_retries) {
          due.push_back(entry);
        }
      }
    });
    // Earliest due first; the key breaks ties (the map gave key order already).
    std::stable_sort(due.begin(), due.end(), [](const ClaimEntry& a, const ClaimEntry& b) {
      return *a.next_attempt_at < *b.next_attempt_at;
    });
    due.erase(due.begin() + static_cast<std::ptrdiff_t>(std::min(due.size(), limit)), due.end());
    return due;
  }

  ClaimCounts do_counts(const std::optional<TenantId>& tenant) override {
    const Timestamp now = now_();
    ClaimCounts counts;
    database_->read([&](const detail::State& state) {
      for (const auto& [key, entry] : state.claims) {
        if (tenant && key.tenant() != *tenant) {
          continue;
        }
        kit::count_claim_entry(
            counts, entry.status, entry.received_at,
            entry.status == ClaimStatus::kFailed && *entry.next_attempt_at <= now);
      }
    });
    return counts;
  }

  ClaimPage do_entries(const ClaimPageRequest& request) override {
    ClaimPage page;
    database_->read([&](const detail::State& state) {
      auto it = request.after ? state.claims.upper_bound(*request.after) : state.claims.begin();
      for (; it != state.claims.end(); ++it) {
        const ClaimEntry& entry = it->second;
        if ((request.tenant && entry.key.tenant() != *request.tenant) ||
            (request.status && entry.status != *request.status)) {
          continue;
        }
        if (page.entries.size() == request.limit) {
          page.next = page.entries.back().key;
          return;
        }
        page.entries.push_back(entry);
      }
    });
    return page;
  }

  std::size_t do_cleanup_batch(const TenantId* tenant, Timestamp cutoff,
                               std::size_t limit) override {
    std::size_t deleted = 0;
    database_->write([&](detail::State& state) {
      for (auto it = state.claims.begin(); it != state.claims.end() && deleted < limit;) {
        if (kit::cleanable(it->second, tenant, cutoff)) {
          it = state.claims.erase(it);
          ++deleted;
        } else {
          ++it;
        }
      }
    });
    return deleted;
  }

  std::uint64_t do_count_cleanable(const std::optional<TenantId>& tenant,
                                   Timestamp cutoff) override {
    const TenantId* only = tenant ? &*tenant : nullptr;
    std::uint64_t count = 0;
    database_->read([&](const detail::State& state) {
      count = static_cast<std::uint64_t>(std::count_if(
          state.claims.begin(), state.claims.end(),
          [&](const auto& item) { return kit::cleanable(item.second, only, cutoff); }));
    });
    return count;
  }

 private:
  Timestamp now_() const { return kit::machine_now(database_->clock()); }

  // Applies `change` to the entry under `token`'s claim; whether it did.
  template <typename Change>
  bool change_held(const ClaimKey& key, const ClaimToken& token, const Change& change) {
    const Timestamp now = now_();
    bool changed = false;
    database_->write([&](detail::State& state) {
      if (ClaimEntry* entry = held_by(state.claims, key, token)) {
        change(*entry, now);
        changed = true;
      }
    });
    return changed;
  }

  std::shared_ptr<detail::Database> database_;
};

}  // namespace

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(const Database& database) {
  return std::make_unique<MemoryClaimInboxStore>(DatabaseAccess::state(database));
}

std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(const Clock& clock) {
  return open_claim_inbox_store(open_database(clock));
}

}  // namespace docket::memory
