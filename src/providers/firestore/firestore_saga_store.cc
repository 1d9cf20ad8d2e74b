#include "providers/firestore/firestore_saga_store.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/unit_sagas.h"

namespace docket::firestore::detail {

FirestoreSagaStore::FirestoreSagaStore(std::string_view url, const Clock& clock,
                                       kit::RekeyMarkerCheck marker)
    : TaggedSagaStore(clock),
      client_(parse_store_url(url)),
      collection_(client_.url().collection(saga::kCollection)),
      guard_(collection_, LegacyKeyKind::kSaga),
      store_("Firestore saga store (collection '" + collection_ + "' at " + client_.url().text +
             ")"),
      rekey_marker_(client_, store_, marker) {}

StoreCapabilities FirestoreSagaStore::capabilities() const noexcept {
  // One document per save (no commit to bound); joins the provider's own units of work.
  return kit::saga_store_capabilities({.joins_handler_writes = true,
                                       .interactive_transactions = false,
                                       .max_writes_per_commit = 0,
                                       .max_bytes_per_commit = 0,
                                       .max_bytes_per_record = kMaxDocumentBytes,
                                       .feed = FeedKind::kNone,
                                       .server_side_expiry = false,
                                       .shared_between_processes = true});
}

void FirestoreSagaStore::before_save(const SagaId& /*saga*/, const SagaRecord& /*record*/) {
  rekey_marker_.check(client_);  // the limits: create_saga, and every commit
}

kit::TaggedSaga FirestoreSagaStore::read_saga(const SagaId& saga) {
  const std::optional<Document> document =
      get_document(client_, collection_, saga::saga_document_id(saga));
  if (!document) {
    guard_.check(client_);  // a read that found nothing
    return {.record = std::nullopt, .base = {}};
  }
  return {.record = saga::saga_record_of(*document, store_), .base = document->update_time};
}

bool FirestoreSagaStore::create_saga(const SagaId& saga, const SagaRecord& record) {
  // Checked against the limits before the probe: a refusal sends nothing.
  check_document(collection_, saga::saga_document_id(saga), saga::saga_fields(saga, record));
  guard_.check(client_);  // a create that assumes nothing is there
  return commit_saga(saga, record, {.exists = false, .update_time = std::nullopt});
}

bool FirestoreSagaStore::replace_saga(const SagaId& saga, const SagaRecord& record,
                                      const std::string& update_time) {
  return commit_saga(saga, record, {.exists = std::nullopt, .update_time = update_time});
}

bool FirestoreSagaStore::commit_saga(const SagaId& saga, const SagaRecord& record,
                                     Precondition precondition) const {
  const Write write{.collection = collection_,
                    .id = saga::saga_document_id(saga),
                    .fields = saga::saga_fields(saga, record),
                    .precondition = std::move(precondition),
                    .mask = std::nullopt};
  return commit(client_, std::span<const Write>(&write, 1), store_).applied;
}

std::optional<SagaRecord> FirestoreSagaStore::do_load(const SagaId& saga) {
  rekey_marker_.check(client_);
  return read_saga(saga).record;
}

detail::Unit& FirestoreSagaStore::joined_unit(HandlerTransaction& transaction) const {
  return detail::joined_unit(transaction, client_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
}

std::optional<SagaRecord> FirestoreSagaStore::view(detail::Unit& unit, const SagaId& saga) {
  return unit.sagas().view(unit.staged_sagas(), saga, [&] { return read_saga(saga); });
}

SagaSaveResult FirestoreSagaStore::do_save_in(HandlerTransaction& transaction,
                                              const SaveRequest& request) {
  rekey_marker_.check(client_);
  detail::Unit& unit = joined_unit(transaction);
  const WriteResult<SagaRecord> next = next_record(request, view(unit, request.saga));
  if (next.is_conflict()) {
    return next.conflict();
  }
  // The whole document, on the condition that the saga is as this unit first read it.
  const kit::SagaRead<std::string>& first = unit.sagas().first_read(request.saga);
  Write write{.collection = collection_,
              .id = saga::saga_document_id(request.saga),
              .fields = saga::saga_fields(request.saga, next.success()),
              .precondition = {}};
  if (first.record) {
    write.precondition.update_time = first.base;
  } else {
    write.precondition.exists = false;
  }
  std::string what = "save of " + request.saga.describe() + " (document '" + write.id +
                     "' in collection '" + collection_ + "')";
  unit.stage_saga({.saga = request.saga,
                   .record = next.success(),
                   .write = {.write = std::move(write),
                             .role = detail::Role::kSaga,
                             .what = std::move(what),
                             .condition = {},
                             .event = std::nullopt,
                             .sequenced = std::nullopt}});
  return SagaSaved{.new_version = next.success().version};
}

std::optional<SagaRecord> FirestoreSagaStore::do_load_in(HandlerTransaction& transaction,
                                                         const SagaId& saga) {
  rekey_marker_.check(client_);
  return view(joined_unit(transaction), saga);
}

SagaPage FirestoreSagaStore::do_list(const SagaListRequest& request) {
  rekey_marker_.check(client_);
  guard_.check(client_);  // an untenanted document would be listed under no tenant
  std::vector<nlohmann::json> filters;
  if (request.tenant) {
    filters.push_back(field_filter(saga::kTenant, "EQUAL", string_value(request.tenant->value())));
  }
  if (request.saga_type) {
    filters.push_back(field_filter(saga::kSagaType, "EQUAL", string_value(*request.saga_type)));
  }
  if (request.status) {
    filters.push_back(
        field_filter(saga::kStatus, "EQUAL", saga::saga_status_value(*request.status)));
  }
  Query query{
      .collection = collection_, .where = nullptr, .order_by = {}, .limit = request.limit + 1};
  nlohmann::json cursor = nlohmann::json::array();
  if (request.updated_before) {
    filters.push_back(
        field_filter(saga::kUpdatedAt, "LESS_THAN", timestamp_value(*request.updated_before)));
    query.order_by.emplace_back(saga::kUpdatedAt, false);
    if (request.after) {
      cursor.push_back(timestamp_value(request.after->updated_at));
    }
  }
  query.order_by.emplace_back("__name__", false);
  query.where = all_of(std::move(filters));
  if (request.after) {
    cursor.push_back(
        reference_value(client_, collection_, saga::saga_document_id(request.after->saga)));
    query.start_after = std::move(cursor);
  }
  std::vector<SagaSummary> found;
  for (const Document& document : run_query(client_, query)) {
    found.push_back(saga::saga_summary_of(document, store_));
  }
  return kit::saga_list_page(std::move(found), request.limit);
}

std::size_t FirestoreSagaStore::do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                                         const TenantId* tenant) {
  rekey_marker_.check(client_);
  std::vector<nlohmann::json> filters = {
      field_filter(saga::kCompletedAt, "LESS_THAN", timestamp_value(cutoff))};
  if (tenant != nullptr) {
    filters.push_back(field_filter(saga::kTenant, "EQUAL", string_value(tenant->value())));
  }
  const std::vector<Document> candidates =
      run_query(client_, {.collection = collection_,
                          .where = all_of(std::move(filters)),
                          .order_by = {{std::string(saga::kCompletedAt), false}},
                          .limit = batch_size});
  std::size_t deleted = 0;
  for (std::size_t from = 0; from < candidates.size(); from += kMaxWritesPerCommit) {
    const auto first = candidates.begin() + static_cast<std::ptrdiff_t>(from);
    const auto last = first + static_cast<std::ptrdiff_t>(
                                  std::min(kMaxWritesPerCommit, candidates.size() - from));
    deleted += delete_unchanged(std::vector<Document>(first, last));
  }
  return deleted;
}

std::size_t FirestoreSagaStore::delete_unchanged(const std::vector<Document>& documents) const {
  std::vector<Write> deletes;
  deletes.reserve(documents.size());
  for (const Document& document : documents) {
    deletes.push_back({.collection = collection_,
                       .id = document.id,
                       .fields = std::nullopt,
                       .precondition = {.update_time = document.update_time}});
  }
  if (commit(client_, deletes, store_).applied) {
    return deletes.size();
  }
  std::size_t deleted = 0;  // some were deleted (or changed) meanwhile: the rest alone
  for (const Write& write : deletes) {
    deleted += commit(client_, std::span<const Write>(&write, 1), store_).applied ? 1 : 0;
  }
  return deleted;
}

std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock) {
  return std::make_unique<FirestoreSagaStore>(url, clock);
}

}  // namespace docket::firestore::detail
