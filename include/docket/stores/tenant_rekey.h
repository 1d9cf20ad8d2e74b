// rekey_tenant: the re-key of event and saga records stored under the legacy
// untenanted key shapes (docket/keys/legacy.h) to the tenant-keyed shapes of one
// tenant, on a store that can hold them (DynamoDB, Firestore; `docket migrate
// tenant-rekey`, docs/migrations.md). Run it with every writer stopped.
//
// Which tenant a legacy record belongs to is a question about the deployment, not the
// data, so the caller names it, and a name that would strand every record is refused:
//   - a blank tenant, and an empty or malformed (not UTF-8) aggregate or saga type
//     (InvalidInputError, before the store is opened);
//   - a tenant that is neither the single-tenant default "__default__" nor the
//     untenanted sentinel "__untenanted__" nor present in the store already (a stream
//     or saga keyed under it) unless `new_tenant_confirmed` (InvalidInputError naming
//     the sentinels: a mistyped tenant gives well-formed keys no reader ever asks for).
//
// The procedure: export every legacy record (events in version order per stream),
// refuse before writing anything when a legacy key cannot be split into its terms
// without a guess (keys/legacy_split.h) or a record's own tenant field names another
// tenant (each stream refused once, however many events it holds), then move each stream (in
// batches within the store's atomic-write limit) and each saga: the record created under its new
// key where that key is free, and the old one deleted where it is unchanged, in one atomic write.
// An interrupted run leaves every record either moved or not, and a second run finishes the rest: a
// legacy record whose new key already holds the same content is only deleted; one whose new key
// holds different content stops the run with LegacyDataError naming both keys, nothing more
// written. Last, every stream and saga moved is verified through the stores themselves
// (docket/stores/open_store.h, open_saga_store.h) under the new key: the stream loads with versions
// 0..n and its last version and every exported event (by id, at its version) are the export's; the
// saga loads with the exported version and state. A mismatch throws
// InfrastructureError naming it.
//
// Thread-safety: a free function; it opens its own connections.
#ifndef DOCKET_STORES_TENANT_REKEY_H_
#define DOCKET_STORES_TENANT_REKEY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace docket {

struct TenantRekeyOptions {
  std::string tenant;                 // the tenant every legacy record is keyed under
  bool new_tenant_confirmed = false;  // a tenant neither sentinel nor present is meant
  bool dry_run = false;               // export, split and count; write nothing
  // Re-key only the legacy records whose own tenant field (attribute) names `tenant`,
  // leaving every other legacy record as it is (untenanted ones among them): how a
  // store holding records of several tenants is re-keyed, one tenant at a time, before
  // a last run moves the untenanted rest. Those records name their tenant themselves,
  // so the known-tenant check below is not made.
  bool only_named = false;
  // Aggregate (saga) types of the deployment, naming the split of a legacy key whose
  // raw terms hold the separator more than once (keys/legacy_split.h).
  std::vector<std::string> aggregate_types{};
  std::vector<std::string> saga_types{};
  // Called after each stream or saga moved (or, on a dry run, counted), with what it
  // was ("stream order:O-1 (3 events)") and how many of `total` are done.
  std::function<void(std::string_view moved, std::uint64_t done, std::uint64_t total)>
      on_progress{};
  // Called after each atomic write of a stream that takes more than one, with the
  // stream ("stream order / O-1") and how many of its `events` are moved so far: a long
  // stream shows its progress, and a run killed between two writes shows where.
  std::function<void(std::string_view stream, std::uint64_t moved, std::uint64_t events)>
      on_stream_progress{};
};

// One exported event: where the verification must find it.
struct RekeyedEvent {
  std::int64_t version = 0;
  std::string event_id;  // canonical UUID text
};

// A stream that held legacy events, with the events this run exported, in version order.
struct RekeyedStream {
  std::string aggregate_type;
  std::string aggregate_id;
  std::vector<RekeyedEvent> events;
};

// A legacy saga this run exported.
struct RekeyedSaga {
  std::string saga_type;
  std::string saga_id;
  std::int64_t version = 0;
  std::string state;  // bytes
};

struct TenantRekeyReport {
  std::string provider;              // "dynamodb"
  std::uint64_t streams = 0;         // streams with a legacy event (dry run: to move)
  std::uint64_t events = 0;          // legacy events moved (dry run: to move)
  std::uint64_t sagas = 0;           // legacy sagas moved (dry run: to move)
  std::uint64_t events_already = 0;  // legacy events whose new key held them already
  std::uint64_t sagas_already = 0;   // the same for sagas
  std::uint64_t streams_verified = 0;
  std::uint64_t sagas_verified = 0;
  std::vector<RekeyedStream> moved_streams;  // what was exported (dry run: would move)
  std::vector<RekeyedSaga> moved_sagas;
};

// Re-keys every legacy event and saga record of the store `url` names under
// `options.tenant`. Throws ConfigurationError for a URL no provider of this build opens,
// or whose provider never stored legacy untenanted keys; InvalidInputError for the
// refusals above (nothing written); LegacyDataError for a new key holding other
// content; and what the reads and writes throw (each record moved so far stays
// moved, and a second run finishes).
TenantRekeyReport rekey_tenant(std::string_view url, const TenantRekeyOptions& options);

}  // namespace docket

#endif  // DOCKET_STORES_TENANT_REKEY_H_
