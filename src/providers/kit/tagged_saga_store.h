// A SagaStore whose provider reads a saga with a tag of that read (Cosmos DB's etag,
// Firestore's updateTime) and writes it only where it is still as read (If-Match; a
// commit precondition), or creates it only where none is: the save written once over
// the provider's read and its two conditional writes.
//
// The save (do_save): the record (ConditionalSagaStore::saved_record) is first shown to
// before_save, which checks it against the provider's limits and does what must come
// before any read or write (the re-key marker, the container), so that a refusal there
// sends nothing. A save of a new saga (kNewSaga) is create_saga, refused where a saga
// exists. A save at version N reads the saga with its tag (read_saga), refuses a saga
// that is not there or not at N (a conflict) or completed at N (completed_saga_error),
// and writes the whole record, started_at kept from the read, with replace_saga under
// that tag. Of two saves expecting one version, the first to write changes the tag, so
// the other's write is refused. A write that was refused reads the saga again and
// reports what it met (ConditionalSagaStore::refusal): the conflict with the version
// found, or the completed saga.
//
// The provider's part: read_saga probes its legacy-key guard where it finds no saga;
// create_saga probes it before the create (a create assumes nothing is there); neither
// write is ever resent after an ambiguous failure (it would meet its own write).
//
// Thread-safety: as the provider's store says; the save keeps no state of its own.
#ifndef DOCKET_PROVIDERS_KIT_TAGGED_SAGA_STORE_H_
#define DOCKET_PROVIDERS_KIT_TAGGED_SAGA_STORE_H_

#include <string>

#include "docket/core/clock.h"
#include "docket/sagas/saga_store.h"
#include "providers/kit/conditional_saga_store.h"
#include "providers/kit/unit_sagas.h"

namespace docket::kit {

// The saga as read (record nullopt: none) and the tag of that read (an etag, an
// update time; empty when there is none).
using TaggedSaga = SagaRead<std::string>;

class TaggedSagaStore : public ConditionalSagaStore {
 protected:
  explicit TaggedSagaStore(const Clock& clock) noexcept : ConditionalSagaStore(clock) {}

  SagaSaveResult do_save(const SaveRequest& request) final;

 private:
  // Before anything a save of `record` to `saga` reads or writes: throws for a record
  // over the provider's limits (InvalidInputError, nothing written) and whatever else
  // must hold first (the re-key marker).
  virtual void before_save(const SagaId& saga, const SagaRecord& record) = 0;
  // The saga with its tag, probing the legacy-key guard when there is none.
  virtual TaggedSaga read_saga(const SagaId& saga) = 0;
  // Writes `record` where no saga is (after the legacy-key probe); false when one is.
  virtual bool create_saga(const SagaId& saga, const SagaRecord& record) = 0;
  // Writes `record` over the saga where it is still as read under `tag`; false when it
  // changed (or went) since.
  virtual bool replace_saga(const SagaId& saga, const SagaRecord& record,
                            const std::string& tag) = 0;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_TAGGED_SAGA_STORE_H_
