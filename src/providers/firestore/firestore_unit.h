// One Firestore unit of work: the writes of one Firestore commit (the inbox's dedup
// documents, the outbox's messages and the handlers' writes), staged in a
// kit::UnitStaging with savepoint marks, checked as they are staged (ids, fields,
// document size, one write per document, at most 500 writes and 10 MiB a commit) and
// sent at commit as ONE commit (no transaction: the preconditions are checked by the
// server at commit, so nothing is locked while handlers run).
//
// A refused commit does not say which precondition failed, so commit reads the
// documents whose writes carry one, in the order dedup, create, other writes, and
// throws for the first that does not hold now:
//   a dedup document that exists          UniqueViolationError (a duplicate: the
//                                         dispatcher confirms with is_recorded)
//   a saga another unit saved meanwhile   SagaConflictError
//   an event whose version is taken       ConcurrencyConflictError (another unit appended
//                                         to the stream after this one read it)
//   a created document that exists        UniqueViolationError naming collection and id
//   any other condition that fails        ConditionFailedError naming collection, id and
//                                         the condition
//   none fails any more (it held again)   ConditionFailedError saying so
// In every case nothing of the unit was written.
//
// Sequenced documents (the outbox's messages): a create staged with a
// SequencedDocument takes its sequence at commit, not when staged: commit draws the
// numbers of all of them in one increment of their counter just before the unit's
// commit (firestore_sequence_counter.h), and numbers them in staging order. A unit that
// rolls back, or a savepoint rolled back, draws nothing; the numbers of a commit that
// then fails are gaps. (A Firestore integer is 8 bytes whatever its value, so the size
// checked at staging is the size sent.)
//
// Sagas (kit/unit_sagas.h): a saga store joined to the unit reads each saga once and
// stages whole saves; commit sends each saga's latest save alone, after the other
// writes, with the precondition that the saga is as first read (exists: false, or its
// update time). Events (kit/unit_streams.h): an event store joined to the unit reads
// each stream's version once and stages one create per event, where its id is free.
//
// Thread-safety: belongs to one thread.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_UNIT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_UNIT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/firestore/transaction.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_sequence_counter.h"
#include "providers/firestore/firestore_transaction_access.h"
#include "providers/kit/unit_sagas.h"
#include "providers/kit/unit_staging.h"
#include "providers/kit/unit_streams.h"

namespace docket::firestore::detail {

// How commit reads a failed precondition of the write.
enum class Role : std::uint8_t {
  kDedup,   // the inbox's record that the message was processed (exists: false)
  kCreate,  // a write that requires the id to be free (exists: false)
  kWrite,   // any other write, with or without a precondition
  kSaga,    // a saga's save, unchanged since the unit first read it
  kEvent,   // an appended event's document, created where its version is free
};

// A document whose fields take a sequence drawn at commit: the counter it is drawn
// from, and what writes the number into the fields.
struct SequencedDocument {
  SequenceCounter counter;
  void (*number)(nlohmann::json& fields, std::int64_t sequence) = nullptr;
};

struct StagedWrite {
  Write write;
  Role role = Role::kWrite;
  std::string what;       // "set of document 'o-1' in collection 'orders'", for errors
  std::string condition;  // its precondition in words, for errors ("" when none)
  std::optional<kit::StagedEvent> event;       // role kEvent: the event's stream and version
  std::optional<SequencedDocument> sequenced;  // a create numbered at commit
};

// A saga as the unit first read it: its document's update time ("" when there was
// none), the precondition of its save.
using UnitSagas = kit::UnitSagas<std::string, StagedWrite>;

// What every unit of one store shares.
struct UnitContext {
  const Client& client;
  std::string store;  // "Firestore inbox (collection '...' at ...)", for errors
};

class Unit : public TransactionAccess {
 public:
  explicit Unit(const UnitContext& context);

  // The handler's writes and reads (docket/firestore/transaction.h).
  void create(std::string_view collection, std::string_view id, nlohmann::json fields);
  void set(std::string_view collection, std::string_view id, nlohmann::json fields,
           const std::optional<Condition>& condition);
  void update(std::string_view collection, std::string_view id, nlohmann::json fields,
              const Condition& condition);
  void remove(std::string_view collection, std::string_view id,
              const std::optional<Condition>& condition);
  void check(std::string_view collection, std::string_view id, const Condition& condition);
  std::optional<DocumentRead> get(std::string_view collection, std::string_view id) const;

  // Stages docket's own write of a whole document (a dedup document, an outbox
  // message), created where its id is free: `role` kDedup or kCreate; with `sequenced`,
  // numbered at commit (above).
  void stage_create(std::string_view collection, std::string_view id, nlohmann::json fields,
                    Role role, std::optional<SequencedDocument> sequenced = std::nullopt);

  // The sagas the unit read and saved; stage a save with stage_saga.
  UnitSagas& sagas() noexcept { return sagas_; }
  const std::vector<UnitSagas::Save>& staged_sagas() const noexcept {
    return staging_.writes().list<UnitSagas::Save>();
  }
  // Stages `save`, whose write (role kSaga) carries its precondition; checks its
  // document as every write's. Throws as the other writes when the unit ended, the
  // document is over a limit or the commit full.
  void stage_saga(UnitSagas::Save save);

  // The event streams the unit read and appended to (kit/unit_streams.h), viewed over
  // staged_writes(); stage an event with stage_event.
  kit::UnitStreams& streams() noexcept { return streams_; }
  const std::vector<StagedWrite>& staged_writes() const noexcept {
    return staging_.writes().list<StagedWrite>();
  }
  // Stages the creation of an event's document, where its id is free.
  void stage_event(std::string_view collection, std::string_view id, nlohmann::json fields,
                   kit::StagedEvent event);

  // Whether a write of this unit (not rolled back) touches the document.
  bool holds(std::string_view collection, std::string_view id) const;

  Transaction& transaction() noexcept { return tx_; }
  // The client the unit commits through: whose server its writes go to (the outbox
  // stages only into a unit of its own URL).
  const Client& client() const noexcept { return context_.client; }
  // Whether commit() was called: nothing can be staged any more.
  bool ended() const noexcept { return staging_.ended(); }

  void begin_savepoint() { staging_.begin_savepoint(); }
  void release_savepoint() { staging_.release_savepoint(); }
  void rollback_savepoint() { staging_.rollback_savepoint(); }

  // Numbers the sequenced documents (one counter draw), then sends the staged writes as
  // one commit (nothing when none). Throws as the header comment says, or
  // InfrastructureError when the unit already ended.
  void commit();

 private:
  void stage(Write write, Role role, std::string_view operation,
             std::optional<kit::StagedEvent> event = std::nullopt,
             std::optional<SequencedDocument> sequenced = std::nullopt);
  // The writes of the staged writes, the sequenced documents numbered from one draw per
  // counter.
  std::vector<Write> numbered_writes() const;
  [[noreturn]] void throw_refused(const ServiceError& refusal,
                                  const std::vector<const UnitSagas::Save*>& sagas) const;

  const UnitContext& context_;
  kit::UnitStaging<StagedWrite, UnitSagas::Save> staging_;
  UnitSagas sagas_;
  kit::UnitStreams streams_;
  Transaction tx_;
};

// The unit under `transaction` when it is a docket::firestore::Transaction of a unit
// on the server, project, database and prefix of `client` (the stores of one URL
// commit together). Otherwise throws what `refuse` makes of the reason, which names
// the transaction's type or both URLs.
Unit& joined_unit(HandlerTransaction& transaction, const Client& client,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_UNIT_H_
