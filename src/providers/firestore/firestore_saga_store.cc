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
    : SagaStore(clock),
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

SagaSaveResult FirestoreSagaStore::do_save(const SaveRequest& request) {
  rekey_marker_.check(client_);
  const bool creates = request.expected_version == kNewSaga;
  const std::string id = saga::saga_document_id(request.saga);
  SagaRecord record{.version = request.expected_version + 1,
                    .state = std::string(request.state),
                    .status = request.status,
                    .started_at = request.now,
                    .updated_at = request.now,
                    .completed_at = std::nullopt};
  if (request.status == SagaStatus::kCompleted) {
    record.completed_at = request.now;
  }
  Write write{.collection = collection_, .id = id, .fields = {}, .precondition = {}};
  if (creates) {
    // Checked against the limits before the probe: a refusal sends nothing.
    check_document(collection_, id, saga::saga_fields(request.saga, record));
    guard_.check(client_);  // a create that assumes nothing is there
    write.precondition.exists = false;
  } else {
    const std::optional<Document> current = read(id);
    if (!current) {
      return refused(request, current);
    }
    const SagaRecord found = saga::saga_record_of(*current, store_);
    if (found.version != request.expected_version || found.completed_at) {
      return refused(request, current);
    }
    record.started_at = found.started_at;
    write.precondition.update_time = current->update_time;
  }
  write.fields = saga::saga_fields(request.saga, record);
  if (commit(client_, std::span<const Write>(&write, 1), store_).applied) {
    return SagaSaved{.new_version = record.version};
  }
  return refused(request, read(id));
}

SagaSaveResult FirestoreSagaStore::refused(const SaveRequest& request,
                                           const std::optional<Document>& current) const {
  std::optional<SagaRecord> found;
  if (current) {
    found = saga::saga_record_of(*current, store_);
  }
  const std::int64_t actual = found ? found->version : kNewSaga;
  if (found && actual == request.expected_version && found->completed_at) {
    throw completed_saga_error(request.saga, *found->completed_at);
  }
  return VersionConflict{.subject = request.saga.describe(),
                         .expected_version = request.expected_version,
                         .actual_version = actual};
}

std::optional<Document> FirestoreSagaStore::read(const std::string& id) {
  std::optional<Document> document = get_document(client_, collection_, id);
  if (!document) {
    guard_.check(client_);  // a read that found nothing
  }
  return document;
}

std::optional<SagaRecord> FirestoreSagaStore::do_load(const SagaId& saga) {
  rekey_marker_.check(client_);
  const std::optional<Document> document = read(saga::saga_document_id(saga));
  if (!document) {
    return std::nullopt;
  }
  return saga::saga_record_of(*document, store_);
}

detail::Unit& FirestoreSagaStore::joined_unit(HandlerTransaction& transaction) const {
  return detail::joined_unit(transaction, client_, [&](const std::string& reason) {
    return cannot_join_error(transaction, reason);
  });
}

std::optional<SagaRecord> FirestoreSagaStore::view(detail::Unit& unit, const SagaId& saga) {
  return unit.sagas().view(unit.staged_sagas(), saga, [&] {
    const std::optional<Document> document = read(saga::saga_document_id(saga));
    kit::SagaRead<std::string> first;
    if (document) {
      first.record = saga::saga_record_of(*document, store_);
      first.base = document->update_time;
    }
    return first;
  });
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
