// The claim inbox's state changes and its one-entry read (cosmos_claim_inbox_store.h).
#include "providers/cosmos/cosmos_claim_inbox_store.h"

#include <utility>

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "providers/cosmos/cosmos_claim_item.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/kit/claim_transition.h"
#include "providers/kit/key_bridge.h"

namespace docket::cosmos::detail {
namespace {

// Each refused write means another writer changed the entry in between; a writer refused
// this often in a row is starved by a hot entry, and says so rather than spin.
constexpr int kMaxEntryRaces = 1000;

}  // namespace

CosmosClaimInboxStore::CosmosClaimInboxStore(std::string_view url, const Clock& clock)
    : client_(parse_store_url(url)),
      clock_(clock),
      container_(client_.url().container(claim::kContainer)),
      store_("Cosmos DB claim inbox (container '" + container_ + "' at " + client_.url().printable +
             ")") {}

StoreCapabilities CosmosClaimInboxStore::capabilities() const noexcept {
  // Never joins a handler's writes; every process that names the container shares it.
  // Cleanup deletes query pages item by item, so no commit limit bounds a batch.
  // Leases are on the claimer's clock: a claimer whose clock runs S ahead takes over a
  // lease S early, so a lease must exceed the worst skew between claimers plus the
  // handler's run.
  return {.joins_handler_writes = false,
          .interactive_transactions = false,
          .max_writes_per_commit = 0,
          .max_bytes_per_commit = 0,
          .max_bytes_per_record = kMaxItemBytes,
          .feed = FeedKind::kNone,
          .server_side_expiry = false,
          .shared_between_processes = true,
          .concurrent_writers = true,
          .lease_clock = LeaseClock::kClaimer};
}

void CosmosClaimInboxStore::migrate() {
  client_.ensure_container(container_, claim::kPartitionKeyPath);
}

std::string CosmosClaimInboxStore::entry_id(const ClaimKey& key) const {
  return kit::inbox_entry_id(keys::Provider::kCosmosDb, key).value;
}

std::optional<std::string> CosmosClaimInboxStore::change_entry(const std::string& id,
                                                               const Change& change) {
  migrate();
  for (int race = 0; race < kMaxEntryRaces; ++race) {
    const std::optional<ReadItem> read = read_item(client_, address(id));
    std::optional<ClaimEntry> entry;
    if (read) {
      entry = claim::claim_entry_of(read->body, store_);
    }
    if (!change(entry, clock_.now())) {
      return std::nullopt;
    }
    const nlohmann::json item = claim::claim_item(id, *entry);
    check_item_size(item, store_);
    std::optional<std::string> etag = read ? replace_item(client_, address(id), item, read->etag)
                                           : create_item(client_, address(id), item);
    if (etag) {
      return etag;
    }
  }
  throw InfrastructureError(store_ + ": entry '" + id + "' changed under each of " +
                            std::to_string(kMaxEntryRaces) + " attempts to change it; retry later");
}

ClaimResult CosmosClaimInboxStore::do_try_claim(const ClaimKey& key, const ClaimToken& token,
                                                std::chrono::microseconds lease) {
  const std::string id = entry_id(key);
  migrate();
  // A message seen for the first time, most claims, is one create with no read.
  const Timestamp created_at = clock_.now();
  ClaimEntry created = kit::new_claim_entry(key, created_at);
  const ClaimResult claimed = kit::claim(created, token, created_at, lease);
  const nlohmann::json item = claim::claim_item(id, created);
  check_item_size(item, store_);
  if (std::optional<std::string> etag = create_item(client_, address(id), item)) {
    writes_.remember(id, token, std::move(created), std::move(*etag));
    return claimed;
  }
  ClaimResult result;
  std::optional<ClaimEntry> written;
  std::optional<std::string> etag =
      change_entry(id, [&](std::optional<ClaimEntry>& entry, Timestamp now) {
        if (!entry) {
          entry = kit::new_claim_entry(key, now);
        }
        result = kit::claim(*entry, token, now, lease);
        written = *entry;
        return result.outcome == ClaimOutcome::kClaimed;
      });
  if (etag) {
    writes_.remember(id, token, std::move(*written), std::move(*etag));
  }
  return result;
}

std::optional<ClaimEntry> CosmosClaimInboxStore::change_held(
    const std::string& id, const ClaimToken& token,
    const std::function<void(ClaimEntry&, Timestamp)>& change, ClaimGoesOn goes_on) {
  const auto written = [&](const ClaimEntry& entry, std::string etag) {
    if (goes_on == ClaimGoesOn::kYes) {
      writes_.remember(id, token, entry, std::move(etag));
    }
    return std::optional<ClaimEntry>(entry);
  };
  // The claim's last write as this store made it: unchanged since when its etag still
  // matches, so the change needs no read first.
  if (std::optional<ClaimWrites::Written> last = writes_.take(id, token);
      last && kit::held_by(last->entry, token)) {
    change(last->entry, clock_.now());
    const nlohmann::json item = claim::claim_item(id, last->entry);
    check_item_size(item, store_);
    if (std::optional<std::string> etag = replace_item(client_, address(id), item, last->etag)) {
      return written(last->entry, std::move(*etag));
    }
    // 412 or 404: another writer changed the entry since; decide from what it is now.
  }
  std::optional<ClaimEntry> changed;
  std::optional<std::string> etag =
      change_entry(id, [&](std::optional<ClaimEntry>& entry, Timestamp now) {
        if (!entry || !kit::held_by(*entry, token)) {
          return false;
        }
        change(*entry, now);
        changed = *entry;
        return true;
      });
  return etag ? written(*changed, std::move(*etag)) : std::nullopt;
}

bool CosmosClaimInboxStore::do_mark_processed(const ClaimKey& key, const ClaimToken& token) {
  return change_held(
             entry_id(key), token,
             [](ClaimEntry& entry, Timestamp now) { kit::mark_processed(entry, now); },
             ClaimGoesOn::kNo)
      .has_value();
}

bool CosmosClaimInboxStore::do_release(const ClaimKey& key, const ClaimToken& token) {
  return change_held(
             entry_id(key), token,
             [](ClaimEntry& entry, Timestamp now) { kit::release(entry, now); }, ClaimGoesOn::kNo)
      .has_value();
}

bool CosmosClaimInboxStore::do_mark_failed(const ClaimKey& key, const ClaimToken& token,
                                           const ClaimFailure& failure) {
  return change_held(
             entry_id(key), token,
             [&](ClaimEntry& entry, Timestamp now) { kit::mark_failed(entry, failure, now); },
             ClaimGoesOn::kNo)
      .has_value();
}

std::optional<Timestamp> CosmosClaimInboxStore::do_renew(const ClaimKey& key,
                                                         const ClaimToken& token,
                                                         std::chrono::microseconds lease) {
  const std::optional<ClaimEntry> renewed = change_held(
      entry_id(key), token,
      [&](ClaimEntry& entry, Timestamp now) { kit::renew(entry, now, lease); }, ClaimGoesOn::kYes);
  if (!renewed) {
    return std::nullopt;
  }
  return renewed->lease_until.value();
}

bool CosmosClaimInboxStore::do_try_mark_processed(const ClaimKey& key) {
  return change_entry(entry_id(key),
                      [&](std::optional<ClaimEntry>& entry, Timestamp now) {
                        if (!entry) {
                          entry = kit::new_claim_entry(key, now);
                        } else if (entry->status == ClaimStatus::kProcessed) {
                          return false;
                        }
                        kit::mark_processed(*entry, now);
                        return true;
                      })
      .has_value();
}

bool CosmosClaimInboxStore::do_retry_now(const ClaimKey& key) {
  return change_entry(entry_id(key),
                      [](std::optional<ClaimEntry>& entry, Timestamp now) {
                        return entry && kit::retry_now(*entry, now);
                      })
      .has_value();
}

std::optional<ClaimEntry> CosmosClaimInboxStore::do_find(const ClaimKey& key) {
  const std::string id = entry_id(key);
  migrate();
  const std::optional<ReadItem> read = read_item(client_, address(id));
  if (!read) {
    return std::nullopt;
  }
  return claim::claim_entry_of(read->body, store_);
}

}  // namespace docket::cosmos::detail
