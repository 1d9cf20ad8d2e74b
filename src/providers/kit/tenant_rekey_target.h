// What a document provider gives the tenant re-key procedure (tenant_rekey_procedure.h,
// docket/stores/tenant_rekey.h): its legacy event and saga records as read, each record's
// document under its new key, and ONE write (atomic where the provider can make it so:
// commit() says what one that is not may leave) that creates new documents where their
// keys are free and deletes old ones where they are unchanged. The procedure
// (which records move, in what order and batches, what a refused write means) is the
// kit's, once for every provider.
//
// The procedure writes the target's marker before anything else and removes it after
// verifying, through the target's own stores, every stream and saga under the tenant.
// What makes a half-done write safe is that order and the marker, not the atomicity of
// one write: a record is deleted only after its new document is written, and while the
// marker is there no store reads either.
//
// Documents are the provider's own JSON (a DynamoDB item, a Firestore document's
// fields), opaque here; two documents are the same content when their JSON is equal,
// which holds for a document the provider wrote from one it read and then read back.
//
// Thread-safety: a target is used by one thread.
#ifndef DOCKET_PROVIDERS_KIT_TENANT_REKEY_TARGET_H_
#define DOCKET_PROVIDERS_KIT_TENANT_REKEY_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/stream_id.h"
#include "docket/keys/legacy_split.h"
#include "docket/keys/provider.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"
#include "providers/kit/tenant_rekey_marker.h"

namespace docket::kit {

enum class RekeyKind { kEvent, kSaga };

// One legacy record as read.
struct LegacyRecord {
  RekeyKind kind = RekeyKind::kEvent;
  std::string key;                // the stored key (DynamoDB partition key, Firestore document id)
  std::string stream;             // events: the legacy key of its stream (DynamoDB: `key`;
                                  // Firestore: the id without ":{version}"); sagas: `key`
  std::string sort_key;           // DynamoDB sagas: the saga type; else empty
  keys::LegacyFieldTerms fields;  // the terms the record's own fields name
  std::optional<std::string> tenant_field;  // the tenant its own field names, if any
  std::int64_t version = 0;                 // the event's version; the saga's version
  std::string event_id;                     // events: the event id as stored
  std::string state;                        // sagas: the state bytes
  nlohmann::json document;                  // as read
  std::string revision;                     // the provider's mark of what was read (Firestore's
                                            // updateTime), for an unchanged-since-read condition
};

// A legacy record and where it goes.
struct RekeyMove {
  const LegacyRecord* record = nullptr;
  std::string new_key;          // for messages, and the provider's own use
  nlohmann::json new_document;  // written under new_key
  std::size_t weight = 0;       // its share of one atomic write's byte budget
};

class TenantRekeyTarget {
 public:
  virtual ~TenantRekeyTarget() = default;

  virtual keys::Provider key_shape() const = 0;
  // "DynamoDB table 'app_docket_events'", for messages.
  virtual std::string where(RekeyKind kind) const = 0;

  // Whether any stream or saga is keyed under `tenant` already.
  virtual bool holds_tenant(const TenantId& tenant) const = 0;

  // Every legacy record of the kind (keys/legacy.h), in any order. Throws
  // InfrastructureError for a record docket did not write.
  virtual std::vector<LegacyRecord> legacy_records(RekeyKind kind) const = 0;

  // The move of `record` to `stream` (events) or `saga` (sagas). Throws
  // InvalidInputError (KeyTooLongError, ...) when the new key cannot be composed.
  virtual RekeyMove event_move(const LegacyRecord& record, const StreamId& stream) const = 0;
  virtual RekeyMove saga_move(const LegacyRecord& record, const SagaId& saga) const = 0;

  // The most moves, and the most weight, one atomic write holds (each move is a
  // create and a delete).
  virtual std::size_t moves_per_write() const = 0;
  virtual std::size_t weight_per_write() const = 0;

  // ONE write: each of `moves` created under its new key where that key is free and its
  // old record deleted where unchanged; each of `deletes` (whose new key holds its
  // content already) only deleted where unchanged. The records of one call are one
  // stream's events or one saga. false when a condition failed: no old record was
  // deleted, and either nothing was written (DynamoDB, Firestore: one atomic write) or,
  // on a target whose creates and deletes cannot be one atomic write (Cosmos DB events:
  // the new stream key is another partition), the new documents of `moves` may have been
  // created, each with exactly its new_document, which the procedure's read_new then
  // finds and only deletes, as for a move an earlier, killed run left half done. Either
  // way every record is still held at least once, and whole.
  virtual bool commit(std::span<const RekeyMove* const> moves,
                      std::span<const RekeyMove* const> deletes) const = 0;

  // What the move's new key holds now (nullopt: nothing), comparable with new_document.
  virtual std::optional<nlohmann::json> read_new(const RekeyMove& move) const = 0;

  // The re-key's marker (tenant_rekey_marker.h), in its own table or collection:
  // where it lives ("DynamoDB table 'app_docket_tenant_rekey'"), read (nullopt: none),
  // written (the table created where needed) and removed.
  virtual std::string marker_where() const = 0;
  virtual std::optional<RekeyMarker> read_marker() const = 0;
  virtual void write_marker(const RekeyMarker& marker) const = 0;
  virtual void remove_marker() const = 0;

  // Every stream and saga keyed under `tenant` (the tenanted key range), for the
  // verification: the store's, whichever run moved them.
  virtual std::vector<StreamId> tenant_streams(const TenantId& tenant) const = 0;
  virtual std::vector<SagaId> tenant_sagas(const TenantId& tenant) const = 0;

  // The provider's event and saga stores on the same URL, opened without the marker's
  // probe: the verification reads what the marker keeps every other store from.
  virtual std::unique_ptr<EventStore> verifying_event_store() const = 0;
  virtual std::unique_ptr<SagaStore> verifying_saga_store() const = 0;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_TENANT_REKEY_TARGET_H_
