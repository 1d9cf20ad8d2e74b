// The DynamoDB EventStore: one item per event in <table_prefix>docket_events
// (dynamodb_event_item.h), partition key the stream key (kit::stream_key: the tenant
// is part of it, so each tenant has its own stream and versions), sort key the version.
//
// append is ONE TransactWriteItems: a Put per event, each conditional on
// attribute_not_exists(stream) (so a concurrent appender of any of the same versions
// cancels the whole transaction: a conflict, never a partial append), and for an
// expected version N a ConditionCheck that the item at version N exists (the Put at
// N+1 then proves nothing follows it). "No stream" needs no check beyond the Put at
// version 0; a stream's first event appended alone is a PutItem with that condition,
// no transaction (a resend that finds its own first try, by event id, succeeds). Any
// version reads the stream's last version first (a strongly consistent
// Query, newest first, Limit 1) and appends after it; a cancellation by a concurrent
// appender is retried after a fresh read. The transaction carries a ClientRequestToken
// (a new UUID per attempt), so the client may resend it after an ambiguous failure (a
// timeout, a 5xx): DynamoDB applies one token once within ten minutes and answers the
// resend as the first, so the resend never reports its own first try as a conflict.
// At most 100 actions (events, plus the ConditionCheck) and 4 MB fit one transaction,
// and 400 KB one item: more is refused before sending (InvalidInputError).
//
// load is a strongly consistent Query of the stream from a version, paged.
//
// Guard: an empty load, a "no stream" append, and an any-version append that finds no
// stream first run the table's legacy-key probe (dynamodb_legacy_guard.h), once per
// store instance. Every load and append first probes, once per instance, for the marker
// of a tenant re-key in progress (dynamodb_tenant_rekey.h) and refuses while it is there.
//
// Inside a handler's unit of work (the docket::dynamodb::Transaction of an inbox or
// outbox store on the same URL): the unit reads the stream's last version once
// (kit/unit_streams.h), checks the expected version against its view, and stages one
// Put per event conditional on attribute_not_exists, sent in the unit's one
// TransactWriteItems. Another unit that appended to the stream in between cancels the
// commit (ConcurrencyConflictError), and nothing of the unit is written.
//
// Capabilities: no feed over every stream (FeedKind::kNone: DynamoDB has no order
// across partitions; read_all and read_feed are refused); joins the provider's own
// units of work; shared between processes.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EVENT_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EVENT_STORE_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_legacy_guard.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_table_once.h"
#include "providers/dynamodb/dynamodb_tenant_rekey.h"

namespace docket::dynamodb::detail {

class DynamoDbEventStore final : public EventStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
  // credentials; sends nothing. `probe_items` is the legacy probe's page size; `marker`
  // kSkip only for the tenant re-key's own verification.
  DynamoDbEventStore(std::string_view url, const Clock& clock,
                     std::size_t probe_items = kLegacyProbeItems,
                     kit::RekeyMarkerCheck marker = kit::RekeyMarkerCheck::kProbe);

  std::string_view provider_name() const noexcept override { return "dynamodb"; }
  StoreCapabilities capabilities() const noexcept override;

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& table_name() const noexcept { return table_.name(); }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override;
  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override;
  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override;

  // The stream's last version, kNoStreamVersion when it has none.
  std::int64_t current_version(const std::string& stream_key);
  // The TransactWriteItems input appending `events` after `base` (kNoStreamVersion:
  // the stream's first events), refused when it would not fit one transaction.
  // The PutItem of a stream's first event, appended alone (version 0, its item checked
  // against the limits; first_event_put_request).
  nlohmann::json first_event_put(const std::string& stream_key, RecordedEvent& event) const;
  nlohmann::json transaction(const std::string& stream_key, std::int64_t base,
                             std::vector<RecordedEvent>& events) const;

  Client client_;
  TableOnce table_;
  LegacyGuard guard_;
  std::string store_;  // for errors
  RekeyMarkerProbe rekey_marker_;
};

// Throws what the constructor throws.
std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EVENT_STORE_H_
