// The Firestore SagaStore: one document per saga in {prefix}docket_sagas
// (firestore_saga_document.h), its id t:{tenant}:{sagaId}_{sagaType} from src/keys (each
// tenant has its own saga and versions).
//
// save (kit/tagged_saga_store.h) of a new saga (kNewSaga) is one commit of the whole
// document with the precondition exists: false; of a saga at version N, read first (a
// batchGet), one commit of the whole document with the precondition that it is
// unchanged since that read (its updateTime), which a concurrent save changed. A commit
// is never resent after an ambiguous failure (firestore_documents.h).
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
// list is one structured query: equality filters on tenant, sagaType and status and a
// range filter on updatedAt for those set, at most limit + 1 documents, ordered by
// document name, or, with a range on updatedAt (whose field Firestore requires first
// in the order), by updatedAt then name; resumed after the page's position as the
// cursor (its updatedAt and document name from src/keys). The documents come whole,
// state included (firestore_query.h has no projection). On the Cloud Firestore service
// an updatedAt range with an equality filter needs a composite index (docs/eventsourcing.md,
// "Listing sagas"); equality filters alone are served by the built-in single-field indexes. Listing
// runs the legacy-key guard first (once per instance): an untenanted document has no tenant field
// to list it under.
//
// Guard: a load that finds nothing, a create (kNewSaga), and a save that finds no saga
// run the collection's legacy-key probe (firestore_legacy_guard.h) for a document id
// without its tenant segment ({sagaId}_{sagaType}), once per store instance. A read
// that returns the saga is never probed.
// Every operation first probes, once per instance, for the marker of a tenant re-key in
// progress (firestore_tenant_rekey.h) and refuses while it is there.
//
// Inside a handler's unit of work (the transaction of a Firestore inbox or outbox store
// on the same URL; kit/unit_sagas.h): load reads each saga once per unit (the same
// batchGet and guard) and then answers from the unit's own saves; save checks the
// version the unit sees and stages the whole document, which the unit's commit carries
// once per saga (its latest save) with the precondition that the saga is as first read
// (exists: false, or its updateTime). Another unit that saved the saga in between
// fails the commit with SagaConflictError.
//
// Capabilities: joins the provider's own units of work (transaction_type():
// docket::firestore::Transaction); one document per save, at most kMaxDocumentBytes;
// shared between processes.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_STORE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/firestore/transaction.h"
#include "docket/sagas/saga_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_legacy_guard.h"
#include "providers/firestore/firestore_tenant_rekey.h"
#include "providers/firestore/firestore_unit.h"
#include "providers/kit/tagged_saga_store.h"

namespace docket::firestore::detail {

class FirestoreSagaStore final : public kit::TaggedSagaStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or a missing access
  // token; sends nothing.
  // `marker` kSkip only for the tenant re-key's own verification.
  FirestoreSagaStore(std::string_view url, const Clock& clock,
                     kit::RekeyMarkerCheck marker = kit::RekeyMarkerCheck::kProbe);

  std::string_view provider_name() const noexcept override { return "firestore"; }
  StoreCapabilities capabilities() const noexcept override;
  std::optional<TransactionType> transaction_type() const noexcept override {
    return TransactionType::of<firestore::Transaction>();
  }

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& collection() const noexcept { return collection_; }

 protected:
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override;
  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override;
  SagaPage do_list(const SagaListRequest& request) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

 private:
  // The unit of work under `transaction` (firestore_unit.h), or cannot_join_error.
  detail::Unit& joined_unit(HandlerTransaction& transaction) const;
  // The saga as `unit` sees it (kit/unit_sagas.h), read through read_saga() the first
  // time.
  std::optional<SagaRecord> view(detail::Unit& unit, const SagaId& saga);
  // The save's steps (kit/tagged_saga_store.h): the marker; the document and its
  // updateTime; a commit with exists: false (the document's limits checked before the
  // guard's probe); a commit with the updateTime as its precondition.
  void before_save(const SagaId& saga, const SagaRecord& record) override;
  kit::TaggedSaga read_saga(const SagaId& saga) override;
  bool create_saga(const SagaId& saga, const SagaRecord& record) override;
  bool replace_saga(const SagaId& saga, const SagaRecord& record,
                    const std::string& update_time) override;
  // Commits the whole document of `saga` at `record` on `precondition`; whether it held.
  bool commit_saga(const SagaId& saga, const SagaRecord& record, Precondition precondition) const;
  // Deletes `documents` in one commit, or one by one when that is refused; how many.
  std::size_t delete_unchanged(const std::vector<Document>& documents) const;

  Client client_;
  std::string collection_;
  LegacyGuard guard_;
  std::string store_;  // for errors
  RekeyMarkerProbe rekey_marker_;
};

// Throws what the constructor throws.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_STORE_H_
