// The outbox: stage a message in the producer's own transaction, so that it exists
// exactly when the producer's writes commit, and administer what the relay could not
// deliver.
//
//   auto unit = outbox_store.begin();
//   auto& tx = unit->transaction<docket::SqlTransaction>();   // checked; or a provider's
//   tx.exec("INSERT INTO orders (id, cents) VALUES ($1, $2)", {order.id, order.cents});
//   outbox.send(tx, OrderPlaced{order.id, order.cents});      // docket/core/message_type.h
//   unit->commit();   // the order and its message, or (destroyed uncommitted) neither
//
// Inside an inbox handler, stage through the transaction the handler takes
// ([](const E&, docket::SqlTransaction& tx, docket::HandlerContext&)) the same way:
// the follow-up message then commits with the handler's effects (the outbox must live in
// the same database as the inbox store). OutboxStore::transaction_type() names the one
// wrapper type stage() accepts, for a producer to compare at start-up.
//
// Thread-safety: all members may be called from many threads; `tx` belongs to one.
#ifndef DOCKET_OUTBOX_OUTBOX_H_
#define DOCKET_OUTBOX_OUTBOX_H_

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/message_type.h"
#include "docket/core/sql_transaction.h"
#include "docket/core/uuid.h"
#include "docket/outbox/outbox_message.h"
#include "docket/outbox/outbox_store.h"

namespace docket {

// What Outbox::cancel() did.
enum class CancelOutcome {
  kCancelled,         // it will never be published
  kNotFound,          // no message has the id
  kBeingPublished,    // a relay claimed it and may be publishing it: it may be delivered;
                      // ask again once the relay has recorded the attempt
  kAlreadyPublished,  // done: it was published
  kNotPending,        // parked (skip it instead), skipped or cancelled already
};

// "cancelled", "not found", "being published", "already published" or "not pending".
std::string_view to_string(CancelOutcome outcome) noexcept;

class Outbox {
 public:
  // `store` and `clock` must outlive the outbox.
  explicit Outbox(OutboxStore& store, const Clock& clock = SystemClock::instance()) noexcept
      : store_(store), clock_(clock) {}

  // Stages `message` for the ambient tenant inside `tx`'s transaction and returns its
  // id. Throws InvalidInputError, naming the field, when the event type is empty, not
  // UTF-8 or longer than kMaxEventTypeBytes, when a supplied id is nil or not
  // version 7, or a lineage field is not UTF-8, or the route breaks a rule of
  // OutboxMessage (destination, ordering_key, headers); nothing is staged then. An
  // empty destination is stored as the event type (the default route). Trace headers
  // are carried as given (never an error). A supplied id already staged is a
  // UniqueViolationError when the insert reaches the database: from stage() itself, or,
  // on a store that holds writes back to send them with the transaction's next
  // statement or commit (PostgreSQL: no round trip of its own), from that statement,
  // the commit, or UnitOfWork::flush_deferred_writes(). See OutboxStore::insert for `tx`.
  Uuid stage(HandlerTransaction& tx, const OutboxMessage& message) const;

  // Stages `event` under the name and codec its type declares
  // (docket/core/message_type.h), with the route, lineage, headers and deliver_at of
  // `message`, whose event_type and payload stay empty:
  //   outbox.send(tx, OrderPlaced{"O-1", 4200});
  //   outbox.send(tx, OrderPlaced{"O-1", 4200}, {.ordering_key = "O-1"});
  // Throws InvalidInputError when `message` carries an event type or payload (nothing
  // is staged), and as stage().
  template <NamedMessage Event>
  Uuid send(HandlerTransaction& tx, const Event& event, OutboxMessage message = {}) const {
    if (!message.event_type.empty() || !message.payload.empty()) {
      refuse_typed_send(kMessageTypeOf<Event>);
    }
    message.event_type = std::string(kMessageTypeOf<Event>);
    message.payload = MessageCodec<Event>{}.encode(event);
    return stage(tx, message);
  }

  // The same through portable SQL (docket/core/sql_transaction.h): a producer or handler
  // written against SqlTransaction stages through the one object it holds. Throws
  // ConfigurationError when `tx` is no transaction of a docket store.
  template <class Tx>
  requires std::same_as<Tx, SqlTransaction> Uuid stage(Tx& tx, const OutboxMessage& message)
  const { return stage(store_transaction(tx), message); }
  template <class Tx, NamedMessage Event>
  requires std::same_as<Tx, SqlTransaction> Uuid send(Tx& tx, const Event& event,
                                                      OutboxMessage message = {})
  const { return send(store_transaction(tx), event, std::move(message)); }

  // A type that names no message type: refused at compile time, saying what to add.
  template <class Event>
  requires(!NamedMessage<Event>) Uuid send(HandlerTransaction&, const Event&, OutboxMessage = {})
  const {
    static_assert(NamedMessage<Event>,
                  "docket: outbox.send(tx, event): the event's type names no message type; "
                  "give it `static constexpr std::string_view kMessageType = \"...\";` or "
                  "specialise docket::MessageTraits for it (docket/core/message_type.h)");
    return Uuid{};
  }

  // Parked messages after `after_sequence`, in sequence order, at most `limit`.
  std::vector<OutboxRecord> parked(std::size_t limit = 100, std::int64_t after_sequence = 0) const;

  // Makes a parked message pending again (attempts reset), due now. Returns false
  // when no parked message has that id. Throws InvalidInputError for an empty id.
  bool replay(std::string_view message_id) const;

  // Marks a parked message skipped: done without being published, so that the later
  // messages of its ordering key flow again; it stays listed by status "skipped" (and
  // find()) so an operator can tell it was never sent. Throws InvalidInputError for an
  // empty id, for an id no message has, and for a message that is not parked (naming
  // its status): only a parked message may be skipped.
  void skip(std::string_view message_id) const;

  // Takes back a message before it is published: a pending message (scheduled, due or
  // in backoff after a failed attempt) that no relay holds becomes cancelled, is never
  // published, and releases its ordering key. Otherwise says why not, changing nothing.
  // Throws InvalidInputError for an empty id.
  CancelOutcome cancel(std::string_view message_id) const;

  // Deletes parked messages whose last attempt became due before `cutoff`, at most
  // `batch_size` per short transaction; returns how many. They are never published and
  // leave no trace; their ordering keys are released. Throws InvalidInputError for a
  // batch size of 0.
  std::uint64_t purge_parked_before(Timestamp cutoff, std::size_t batch_size = 1000) const;

  // Deletes done messages older than `cutoff`, at most `batch_size` per short
  // transaction, never one unbounded DELETE; returns how many. Throws
  // InvalidInputError for a batch size of 0.
  std::uint64_t purge_done_before(Timestamp cutoff, std::size_t batch_size = 1000) const;

  OutboxStore& store() const noexcept { return store_; }

 private:
  [[noreturn]] static void refuse_typed_send(std::string_view message_type);
  // `tx` as the store's transaction it is (both are views of one provider transaction).
  static HandlerTransaction& store_transaction(SqlTransaction& tx);
  OutboxStore& store_;
  const Clock& clock_;
};

}  // namespace docket

#endif  // DOCKET_OUTBOX_OUTBOX_H_
