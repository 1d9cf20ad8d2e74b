// The saga store's front end: validates before a provider sees the call, stamps the
// time from the store's clock, and runs purge batches.
#include "docket/sagas/saga_store.h"

#include <string>

#include "core/delete_in_batches.h"
#include "core/observing.h"
#include "eventsourcing/name_rules.h"

namespace docket {
namespace {

void validate_batch_size(std::size_t batch_size) {
  if (batch_size == 0 || batch_size > kMaxPurgeBatch) {
    throw InvalidInputError("saga purge batch size " + std::to_string(batch_size) +
                            " is outside 1.." + std::to_string(kMaxPurgeBatch) +
                            ". Each batch is one short transaction; purge_completed runs as "
                            "many as it takes.");
  }
}

void validate_list_request(const SagaListRequest& request) {
  if (request.limit == 0 || request.limit > kMaxSagaPageSize) {
    throw InvalidInputError("saga list page size " + std::to_string(request.limit) +
                            " is outside 1.." + std::to_string(kMaxSagaPageSize) +
                            ". Read further pages through SagaPage::next instead.");
  }
  if (request.saga_type) {
    // The rules of every saga type a save takes (saga_id.h): a type no SagaId can hold
    // matches no saga, and is a mistake of the caller's.
    eventsourcing::require_name("saga type", *request.saga_type, kMaxSagaTypeBytes,
                                "Pass the type name the sagas to list were saved with, e.g. "
                                "\"checkout\", or no type to list every one.");
  }
  // A position of the same listing is of its tenant and type (a provider's query may
  // rely on it).
  if (request.after &&
      ((request.tenant && request.after->saga.tenant() != *request.tenant) ||
       (request.saga_type && request.after->saga.saga_type() != *request.saga_type))) {
    throw InvalidInputError("saga list is to resume after " + request.after->saga.describe() +
                            ", which is of another tenant or saga type than the listing's. Pass "
                            "the `next` of the previous page of the same listing.");
  }
}

}  // namespace

std::optional<SagaRecord> SagaStore::load(const SagaId& saga) {
  return do_load(saga);
}

std::optional<SagaRecord> SagaStore::load(HandlerTransaction& transaction, const SagaId& saga) {
  return do_load_in(transaction, saga);
}

SagaSaveResult SagaStore::save(const SagaId& saga, std::int64_t expected_version,
                               std::string_view state, SagaStatus status) {
  return observed(saga, do_save(checked_request(saga, expected_version, state, status)));
}

SagaSaveResult SagaStore::save(HandlerTransaction& transaction, const SagaId& saga,
                               std::int64_t expected_version, std::string_view state,
                               SagaStatus status) {
  return observed(saga,
                  do_save_in(transaction, checked_request(saga, expected_version, state, status)));
}

SagaSaveResult SagaStore::observed(const SagaId& saga, SagaSaveResult result) const {
  if (observer_ && result.is_conflict()) {
    const VersionConflict& conflict = result.conflict();
    detail::notify(observer_.get(), [&](Observer& observer) {
      observer.on_saga_conflict(
          SagaConflictObservation{.saga_type = saga.saga_type(),
                                  .tenant = saga.tenant().value(),
                                  .expected_version = conflict.expected_version,
                                  .actual_version = conflict.actual_version});
    });
  }
  return result;
}

SagaStore::SaveRequest SagaStore::checked_request(const SagaId& saga, std::int64_t expected_version,
                                                  std::string_view state, SagaStatus status) const {
  if (expected_version < kNewSaga) {
    throw InvalidInputError("save of " + saga.describe() + " expects version " +
                            std::to_string(expected_version) +
                            ", which no saga has. Pass the version you loaded, or kNewSaga (-1) "
                            "to create the saga. Nothing was written.");
  }
  return SaveRequest{.saga = saga,
                     .expected_version = expected_version,
                     .state = state,
                     .status = status,
                     .now = clock_.now()};
}

SagaSaveResult SagaStore::do_save_in(HandlerTransaction& transaction, const SaveRequest&) {
  throw cannot_join_error(transaction, "this provider does not join a caller's transaction");
}

std::optional<SagaRecord> SagaStore::do_load_in(HandlerTransaction& transaction, const SagaId&) {
  throw cannot_join_error(transaction, "this provider does not join a caller's transaction");
}

SagaPage SagaStore::list(const SagaListRequest& request) {
  validate_list_request(request);
  return do_list(request);
}

std::size_t SagaStore::purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                             const std::optional<TenantId>& tenant) {
  validate_batch_size(batch_size);
  return do_purge_completed_batch(cutoff, batch_size, tenant ? &*tenant : nullptr);
}

std::size_t SagaStore::purge_completed(Timestamp cutoff, std::size_t batch_size,
                                       const std::optional<TenantId>& tenant) {
  validate_batch_size(batch_size);
  const TenantId* only = tenant ? &*tenant : nullptr;
  return static_cast<std::size_t>(core::delete_in_batches(
      batch_size, [&] { return do_purge_completed_batch(cutoff, batch_size, only); }));
}

WriteResult<SagaRecord> SagaStore::next_record(const SaveRequest& request,
                                               const std::optional<SagaRecord>& current) {
  const std::int64_t version = current ? current->version : kNewSaga;
  if (version != request.expected_version) {
    return VersionConflict{.subject = request.saga.describe(),
                           .expected_version = request.expected_version,
                           .actual_version = version};
  }
  if (current && current->status == SagaStatus::kCompleted) {
    throw completed_saga_error(request.saga, *current->completed_at);
  }
  SagaRecord record{.version = version + 1,
                    .state = std::string(request.state),
                    .status = request.status,
                    .started_at = current ? current->started_at : request.now,
                    .updated_at = request.now,
                    .completed_at = {}};
  if (request.status == SagaStatus::kCompleted) {
    record.completed_at = request.now;
  }
  return record;
}

InvalidInputError SagaStore::completed_saga_error(const SagaId& saga, Timestamp completed_at) {
  return InvalidInputError(saga.describe() + " completed at " + format_timestamp(completed_at) +
                           "; a completed saga is final and is kept only until purged. Check "
                           "SagaRecord::status after load and do not save it again. Nothing "
                           "was written.");
}

ConfigurationError SagaStore::cannot_join_error(const HandlerTransaction& transaction,
                                                std::string_view reason) const {
  return ConfigurationError(
      "the " + std::string(provider_name()) + " saga store cannot work inside a " +
      std::string(transaction.type_name()) + ": " + std::string(reason) +
      ". Pass the transaction of an inbox store of the saga store's own provider and "
      "database (for SQLite: open both with the same StoreOptions::path), "
      "or call load/save without a transaction, which commits on its own.");
}

}  // namespace docket
