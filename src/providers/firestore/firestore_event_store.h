// The Firestore EventStore: one document per event in {prefix}docket_events
// (firestore_event_document.h), its id t:{tenant}:{aggregateType}:{aggregateId}:{version}
// from src/keys (the tenant is part of it, so each tenant has its own stream and
// versions), its fields the stream's terms, the version and the event.
//
// append is ONE commit: a write per event, each with the precondition exists: false, so
// an appender that meets any of the same versions already written is refused as a
// whole: a conflict, never a partial append. For an expected version N the event at N
// is read first (a batchGet) and a stream without it is a conflict: the writes at N+1...
// then prove nothing follows N. This needs no transaction because events are never
// changed or deleted once written: an event found at N stays there. For the same
// reason the read is skipped where the store has seen the event at N itself, in an
// append it committed or a load it returned (firestore_known_versions.h): load, decide,
// append is then one request for the append. "No stream" needs nothing beyond the
// writes from version 0. Any version reads the stream's last version
// (a query, newest first, limit 1) and appends after it; a refusal by a concurrent
// appender is retried after a fresh read. A commit is never resent after an ambiguous
// failure (firestore_documents.h): it is thrown. At most kMaxWritesPerCommit events fit
// one commit, and kMaxDocumentBytes one document: more is refused before anything is
// sent (InvalidInputError).
//
// load is a query on the stream's fields from a version, ordered by version, in pages.
// On the Cloud Firestore service the loads and the version reads need two composite
// indexes on the events collection, (tenant, aggregateType, aggregateId, version)
// ascending and the same with version descending (docs/firestore.md); the emulator
// needs none.
//
// Guard: an empty load, a "no stream" append, and an any-version append that finds no
// stream first run the collection's legacy-key probe (firestore_legacy_guard.h), once
// per store instance.
// Every operation first probes, once per instance, for the marker of a tenant re-key in
// progress (firestore_tenant_rekey.h) and refuses while it is there.
//
// Capabilities: no feed over every stream (FeedKind::kNone: Firestore has no global
// order docket could keep without a hot counter; read_all and read_feed are refused);
// joins the provider's own units of work; shared between processes.
//
// Inside a handler's unit of work (the docket::firestore::Transaction of an inbox or
// outbox store on the same URL): the unit reads the stream's last version once
// (kit/unit_streams.h), checks the expected version against its view, and stages one
// create per event (exists: false) in the unit's one commit. Another unit that appended
// to the stream in between makes the commit fail (ConcurrencyConflictError), and
// nothing of the unit is written.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_EVENT_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_EVENT_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_known_versions.h"
#include "providers/firestore/firestore_legacy_guard.h"
#include "providers/firestore/firestore_tenant_rekey.h"

namespace docket::firestore::detail {

class FirestoreEventStore final : public EventStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or a missing access
  // token; sends nothing.
  // `marker` kSkip only for the tenant re-key's own verification.
  FirestoreEventStore(std::string_view url, const Clock& clock,
                      kit::RekeyMarkerCheck marker = kit::RekeyMarkerCheck::kProbe);

  std::string_view provider_name() const noexcept override { return "firestore"; }
  StoreCapabilities capabilities() const noexcept override;

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& collection() const noexcept { return collection_; }

 private:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override;
  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override;
  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override;

  // The stream's last version, kNoStreamVersion when it has none.
  std::int64_t current_version(const StreamId& stream) const;
  // Whether the stream has an event at `version`.
  bool has_event(const StreamId& stream, std::int64_t version) const;
  // The writes creating `events` at versions base+1, ..., each checked against the
  // document limit (InvalidInputError, nothing written).
  std::vector<Write> creates(std::int64_t base, std::vector<RecordedEvent>& events) const;

  Client client_;
  std::string collection_;
  LegacyGuard guard_;
  std::string store_;  // for errors
  RekeyMarkerProbe rekey_marker_;
  KnownVersions known_;
};

// Throws what the constructor throws.
std::unique_ptr<EventStore> open_event_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_EVENT_STORE_H_
