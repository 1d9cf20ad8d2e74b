// The Firestore SagaStore: one document per saga in {prefix}docket_sagas
// (firestore_saga_document.h), its id t:{tenant}:{sagaId}_{sagaType} from src/keys (each
// tenant has its own saga and versions).
//
// save of a new saga (kNewSaga) is one commit of the whole document with the
// precondition exists: false. A save at version N reads the saga (a batchGet), refuses
// a saga that is not at N (a conflict) or is completed at N (InvalidInputError,
// completed_saga_error), and commits the whole document (started_at kept) with the
// precondition that it is unchanged since that read (its updateTime). Of two saves
// expecting one version, the one that commits first changes the updateTime, so the
// other is refused: it is read again and reported as a conflict with the version found.
// A commit is never resent after an ambiguous failure (firestore_documents.h).
//
// load is one batchGet.
//
// purge_completed_batch queries completed sagas by completedAt (which only a completed
// saga carries) before the cutoff, oldest first, of one tenant (tenant equal: on the
// Cloud Firestore service a composite index (tenant, completedAt), docs/firestore.md)
// or of every tenant (the built-in single-field index), and deletes them, up to
// kMaxWritesPerCommit per commit, each with the precondition that it is unchanged since
// the query; a commit refused because a concurrent purge got there first is retried one
// document at a time, so the count is what this call deleted.
//
// Guard: a load that finds nothing, a create (kNewSaga), and a save that finds no saga
// run the collection's legacy-key probe (firestore_legacy_guard.h) for a document id
// without its tenant segment ({sagaId}_{sagaType}), once per store instance. A read
// that returns the saga is never probed.
//
// Capabilities: it works in no handler's transaction (joins_handler_writes false; the
// overloads taking a HandlerTransaction throw ConfigurationError); one document per
// save, at most kMaxDocumentBytes; shared between processes.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_STORE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/clock.h"
#include "docket/saga_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_legacy_guard.h"

namespace docket::firestore {

class FirestoreSagaStore final : public SagaStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or a missing access
  // token; sends nothing.
  FirestoreSagaStore(std::string_view url, const Clock& clock);

  std::string_view provider_name() const noexcept override { return "firestore"; }
  StoreCapabilities capabilities() const noexcept override;

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& collection() const noexcept { return collection_; }

 protected:
  SagaSaveResult do_save(const SaveRequest& request) override;
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

 private:
  // The saga's document, probing the guard when there is none.
  std::optional<Document> read(const std::string& id);
  // The conflict (or completed_saga_error) a save at `request`'s version meets in
  // `current`, the saga as read (nullopt: none).
  SagaSaveResult refused(const SaveRequest& request, const std::optional<Document>& current) const;
  // Deletes `documents` in one commit, or one by one when that is refused; how many.
  std::size_t delete_unchanged(const std::vector<Document>& documents) const;

  Client client_;
  std::string collection_;
  LegacyGuard guard_;
  std::string store_;  // for errors
};

// Throws what the constructor throws.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_STORE_H_
