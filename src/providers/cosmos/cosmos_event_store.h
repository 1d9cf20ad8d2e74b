// The Cosmos DB EventStore: one item per event in {prefix}docket_events, partitioned by
// the stream key t:{tenant}:{aggregateType}:{aggregateId} of src/keys
// (cosmos_event_item.h), so each tenant has its own stream and versions and a stream is
// one logical partition.
//
// append is ONE transactional batch in the stream's partition, which the service applies
// wholly or not at all: a create per event at versions N+1, N+2, ... (the item id is the
// version, so a create at a version already written fails with 409), led, for an
// expected version N, by a read of the item at N (which fails with 404 when the stream
// is not at N yet). Of two appenders with one expectation the first batch applied makes
// the other's create of N+1 fail: a conflict, never a partial append. "No stream" is the
// creates from version 0 alone. Any version reads the stream's top version (a TOP 1
// query in its partition) and appends after it; a batch refused by a concurrent
// appender reads again and retries. A batch is never resent after an ambiguous failure (the
// client's Replay::kUnsafe): it is thrown. At most kMaxAppendEvents events fit one
// append (a batch's 100 operations less the read), each item at most kMaxItemBytes and
// the batch kMaxBatchBytes: more is refused before anything is sent
// (InvalidInputError, "Nothing was written").
//
// load is one query of the stream's partition from a version, in version order (an
// ORDER BY the service serves within one partition), in pages.
//
// Re-key marker: every load and append first probes, once per instance, for the marker
// of a tenant re-key in progress (cosmos_tenant_rekey_marker.h) and refuses while it is
// there (LegacyDataError), as a half-moved stream would load as a whole one.
//
// Guard: an empty load, a "no stream" append, and an any-version append that finds no
// stream first run the container's legacy-key probe (cosmos_legacy_guard.h), once per
// store instance.
//
// Capabilities: no feed over every stream (FeedKind::kNone: Cosmos DB keeps no order
// over partitions that docket could read as a gap-free position without a hot counter;
// read_all and read_feed are refused, and projections read the outbox, docs/cosmos.md).
// It does not join a handler's unit of work: that unit is one batch in the inbox
// container's tenant partition, and a stream is a partition of its own in another
// container; append(transaction, ...) is refused with a ConfigurationError saying so.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_EVENT_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_EVENT_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_legacy_guard.h"
#include "providers/cosmos/cosmos_tenant_rekey_marker.h"

namespace docket::cosmos::detail {

// The most events one append takes: a batch holds 100 operations, one of them the read
// that proves the expected version.
inline constexpr std::size_t kMaxAppendEvents = 99;

class CosmosEventStore final : public EventStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses; sends nothing. `marker`
  // is kSkip only for the tenant re-key's own verification.
  CosmosEventStore(std::string_view url, const Clock& clock,
                   kit::RekeyMarkerCheck marker = kit::RekeyMarkerCheck::kProbe);

  std::string_view provider_name() const noexcept override { return "cosmos"; }
  StoreCapabilities capabilities() const noexcept override;

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& container() const noexcept { return container_; }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override;
  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override;
  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override;

  // The last version of the stream keyed `key`, kNoStreamVersion when it has none.
  std::int64_t current_version(const std::string& key) const;
  // Numbers `events` base+1, ... and makes their items, checked against the limits
  // (InvalidInputError, nothing written).
  std::vector<nlohmann::json> items(const std::string& key, std::int64_t base,
                                    std::vector<RecordedEvent>& events) const;
  // Sends the batch appending `items` after version `base` (read first unless
  // kNoStreamVersion): whether it was applied (false: the stream was not at `base`).
  bool send_append(const std::string& key, std::int64_t base,
                   const std::vector<nlohmann::json>& items) const;

  Client client_;
  std::string container_;
  LegacyGuard guard_;
  std::string store_;  // for errors
  RekeyMarkerProbe rekey_marker_;
};

// Throws what the constructor throws.
std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_EVENT_STORE_H_
