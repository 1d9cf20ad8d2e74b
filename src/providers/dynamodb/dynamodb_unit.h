// One DynamoDB unit of work: the actions of a TransactWriteItems (the inbox's dedup items
// and the handlers' writes), staged in a kit::UnitStaging with savepoint marks, checked as
// they are staged (DynamoDB JSON, item and key limits, one action per item, at most 100
// actions and 4 MB) and sent at commit as ONE TransactWriteItems with a ClientRequestToken
// (a unit of exactly one write: that write alone, below).
//
// Commit reads a cancellation by its reasons, one per action in request order:
//   ConditionalCheckFailed on a dedup item       UniqueViolationError (a duplicate: the
//                                                 dispatcher confirms with is_recorded)
//   ConditionalCheckFailed on an insert          UniqueViolationError naming table and key
//   ConditionalCheckFailed on a saga's save      SagaConflictError (another unit saved the
//                                                 saga after this one read it)
//   ConditionalCheckFailed on an event's put     ConcurrencyConflictError (another unit
//                                                 appended to the stream after this one
//                                                 read it)
//   ConditionalCheckFailed on any other write    ConditionFailedError naming table, key and
//                                                 condition
//   only TransactionConflict or throttling       sent again with a new token (nothing was
//                                                 applied), at most kMaxCommitAttempts
//   any other reason                             InfrastructureError naming the action
// In every case nothing of the unit was written. (A unit of one write sends no
// transaction, below, and its failure is read as this one reason.)
//
// Sequenced items (the outbox's messages): a put staged with a SequencedItem takes its
// sequence at commit, not when staged: commit draws the numbers of all of them in one
// UpdateItem of their counter just before the TransactWriteItems
// (dynamodb_sequence_counter.h), and numbers them in staging order. A unit that rolls
// back, or a savepoint rolled back, draws nothing; the numbers of a commit that then
// fails are gaps. The item staged carries the largest sequence, so its size as checked
// at staging bounds the size sent.
//
// Held sequences (the outbox's ordering keys): a sequenced put with a SequenceHold
// also stages, where the unit has none on that item yet, one hold action on the
// holding item, which counts toward the 100 actions like any other (a unit over them
// gets CommitLimitError at staging). At commit it becomes the Update adding all the
// unit's sequences of that hold (hold_request, dynamodb_sequence_counter.h), in the
// same TransactWriteItems. Refused for room: InvalidInputError naming the hold and its
// limit, nothing written. Refused for order (a unit of the same hold that drew later
// committed first): the unit draws again and sends again, within kMaxCommitAttempts.
//
// Sagas (kit/unit_sagas.h): a saga store joined to the unit reads each saga once and
// stages whole saves; commit sends each saga's latest save alone, after the other
// actions, conditioned on the saga being as first read. Events (kit/unit_streams.h): an
// event store joined to the unit reads each stream's version once and stages one put
// per event, where its version is free.
//
// A unit whose one write is an outbox message without ordering key (a numbered put, no
// hold) or the inbox's dedup record alone commits it as its own PutItem, with the same
// condition and the same errors (dynamodb_unit_single_write.cc): the same work at half
// the write units of a TransactWriteItems. Only these two: a single write carries no
// ClientRequestToken, and only their resend after a lost answer is safe without one (the
// put finds its own item; the dedup record's redelivery finds it recorded); any other
// lone write stays a transaction. A numbered put draws first, as above: an outbox
// message without ordering key is two requests, the draw and the put.
//
// Thread-safety: belongs to one thread.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_UNIT_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_UNIT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "docket/dynamodb/transaction.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_key_schemas.h"
#include "providers/dynamodb/dynamodb_sequence_counter.h"
#include "providers/dynamodb/dynamodb_transaction_access.h"
#include "providers/kit/unit_sagas.h"
#include "providers/kit/unit_staging.h"
#include "providers/kit/unit_streams.h"

namespace docket::dynamodb::detail {

// How commit reads a failed condition of the action.
enum class Role : std::uint8_t {
  kDedup,   // the inbox's record that the message was processed
  kInsert,  // a put that requires the key to be free
  kWrite,   // any other handler write, with or without a condition
  kSaga,    // a saga's save, conditioned on the saga as the unit first read it
  kEvent,   // an appended event's put, where its stream has no event at its version
  kHold,    // the Update of a holding item adding the unit's sequences, built at commit
};

// A put whose item takes a sequence drawn at commit: the counter it is drawn from,
// what writes the number into the item (the sequence, and whatever derives from it),
// and the item that holds the sequence until released, if any.
struct SequencedItem {
  SequenceCounter counter;
  void (*number)(nlohmann::json& item, std::int64_t sequence) = nullptr;
  std::optional<SequenceHold> hold = std::nullopt;
};

struct Action {
  nlohmann::json request;  // one TransactItems element: {"Put": {...}}, ...
  std::string item;        // the table and the canonical key: what identifies the item
  std::string table;
  std::string what;       // "Put of {...} in table 'orders'", for errors
  std::string condition;  // its condition's text, for errors
  Role role = Role::kWrite;
  std::optional<kit::StagedEvent> event;  // role kEvent: the event's stream and version
  // A Put numbered at commit; for role kHold, whose `hold` it adds sequences to.
  std::optional<SequencedItem> sequenced;
};

// What every unit of one store shares.
struct UnitContext {
  const Client& client;
  KeySchemas& schemas;
  std::string store;  // "DynamoDB inbox (table '...' at ...)", for errors
};

inline constexpr int kMaxCommitAttempts = 25;

// A saga as the unit first read it needs nothing beyond its record: the commit's
// condition is on its version.
using UnitSagas = kit::UnitSagas<std::monostate, Action>;

class Unit : public TransactionAccess {
 public:
  explicit Unit(const UnitContext& context);

  // The handler's writes (docket/dynamodb/transaction.h), and docket's own puts; a put
  // with `sequenced` is numbered at commit (above).
  void put(std::string_view table, nlohmann::json item, std::optional<Expression> condition,
           Role role, std::optional<SequencedItem> sequenced = std::nullopt);
  void update(std::string_view table, nlohmann::json key, Expression update,
              std::optional<Expression> condition);
  void remove(std::string_view table, nlohmann::json key, std::optional<Expression> condition);
  void condition_check(std::string_view table, nlohmann::json key, Expression condition);

  // Stages the dedup item `item` of `schema`'s table (already checked), put only where its
  // key is free.
  void stage_dedup(const TableSchema& schema, nlohmann::json item);

  // The sagas the unit read and saved; stage a save with stage_saga.
  UnitSagas& sagas() noexcept { return sagas_; }
  const std::vector<UnitSagas::Save>& staged_sagas() const noexcept {
    return staging_.writes().list<UnitSagas::Save>();
  }
  // Stages `save`, whose write is a Put of role kSaga carrying its condition; `bytes`:
  // the item's size. Throws as the other writes when the unit ended or is full.
  void stage_saga(UnitSagas::Save save, std::size_t bytes);

  // The event streams the unit read and appended to (kit/unit_streams.h), viewed over
  // staged_actions(); stage an event with stage_event.
  kit::UnitStreams& streams() noexcept { return streams_; }
  const std::vector<Action>& staged_actions() const noexcept {
    return staging_.writes().list<Action>();
  }
  // Stages the put of `item`, an event of `schema`'s table, where its key is free.
  void stage_event(const TableSchema& schema, nlohmann::json item, kit::StagedEvent event);

  // Whether an action of this unit (not rolled back) touches the item under `key`.
  bool holds(std::string_view table, const nlohmann::json& key) const;

  Transaction& transaction() noexcept { return tx_; }

  // The client the unit commits through: whose server and table prefix its writes
  // belong to (the outbox stages only into a unit of its own URL).
  const Client& client() const noexcept { return context_.client; }
  // Whether commit() was called: nothing can be staged any more.
  bool ended() const noexcept { return staging_.ended(); }

  void begin_savepoint() { staging_.begin_savepoint(); }
  void release_savepoint() { staging_.release_savepoint(); }
  void rollback_savepoint() { staging_.rollback_savepoint(); }

  // Numbers the sequenced items (one counter draw), then sends the staged actions as one
  // TransactWriteItems (nothing when none). Throws as the header comment says, or
  // InfrastructureError when the unit already ended.
  void commit();

 private:
  void stage(const TableSchema& schema, const nlohmann::json& key, std::string_view operation,
             nlohmann::json body, std::optional<Expression> condition, Role role, std::size_t bytes,
             std::optional<kit::StagedEvent> event = std::nullopt,
             std::optional<SequencedItem> sequenced = std::nullopt);
  // The TransactItems of the staged actions, the sequenced items numbered from one draw
  // per counter, each hold action adding its sequences.
  nlohmann::json numbered_items() const;
  // Whether `error` cancelled the commit only because a hold was refused for order, so
  // that a new draw may pass.
  bool overtaken(const ServiceError& error) const;
  // How many sequenced puts add to the hold of the action at `hold_index`.
  std::size_t added_by(std::size_t hold_index) const;
  // Sends `element` (a TransactItems element, the unit's one write, numbered when
  // `numbered`) as its own single-item operation; throws as the transactional commit.
  void commit_single_write(const nlohmann::json& element, bool numbered,
                           const std::vector<const UnitSagas::Save*>& sagas) const;
  [[noreturn]] void throw_cancelled(const ServiceError& error,
                                    const std::vector<const UnitSagas::Save*>& sagas) const;

  const UnitContext& context_;
  kit::UnitStaging<Action, UnitSagas::Save> staging_;
  UnitSagas sagas_;
  kit::UnitStreams streams_;
  Transaction tx_;
};

// The unit under `transaction` when it is a docket::dynamodb::Transaction of a unit
// on the server, region and table_prefix of `client` (only there do its writes commit
// atomically with the store's). Otherwise throws what `refuse` makes of the reason,
// which names the transaction's type or both URLs.
Unit& joined_unit(HandlerTransaction& transaction, const Client& client,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_UNIT_H_
