// docs/inbox.md's C++ blocks, compiled (tests/docs/check_snippets.cmake): declarations
// at namespace scope, statements in functions that declare what they use (a transport's
// message, a feed read in windows). Compiled only: nothing here runs.
//
// Thread-safety: nothing runs.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/docket.h"
#include "docket/sqlite/transaction.h"

namespace docs_inbox_using_it {

// clang-format off
#include <docket/inbox/inbox_dispatcher.h>
#include <docket/stores/open_store.h>
#include <docket/sqlite/transaction.h>

struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";  // docket/core/message_type.h
  std::string order_id;
  int quantity = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, quantity)
// clang-format on

// What a transport adapter receives: the fields the snippet reads.
struct TransportMessage {
  std::string id;
  std::string type;
  std::string body;
  std::optional<std::string> correlation;
  std::string header(std::string_view name) const;
  void ack();
};

void consume(TransportMessage& msg) {
  // clang-format off
auto store = docket::open_inbox_store("sqlite:///var/lib/app/inbox.db");

docket::HandlerRegistry handlers;
// The event type comes from the handler's first parameter and its kMessageType;
// handlers.on<E>("name", ...) registers a type under a name given here instead.
handlers.on([](const OrderPlaced& e, docket::sqlite::Transaction& tx,
               docket::HandlerContext& ctx) {
  // The handler writes through the unit of work's own transaction: this insert commits
  // with the dedup row, or not at all.
  tx.exec("INSERT INTO reservations (order_id, quantity, tenant) VALUES (?1, ?2, ?3)",
          {e.order_id, std::int64_t{e.quantity}, ctx.tenant().value()});
});

// Throws ConfigurationError now, at start-up, for a bad consumer id, or for handlers
// written against another provider's transaction than the store gives (naming both).
const docket::InboxDispatcher inbox(*store, docket::InboxOptions("stock-service"),
                                    std::move(handlers));

// In the transport adapter, for every delivery:
docket::Envelope envelope{.message_id = msg.id,          // the producer's outbox id, verbatim
                          .event_type = msg.type,
                          .payload = msg.body,
                          .correlation_id = msg.correlation,
                          .traceparent = msg.header("traceparent")};
switch (inbox.dispatch(envelope)) {
  case docket::DispatchOutcome::kProcessed:         // effects committed now
  case docket::DispatchOutcome::kSkippedDuplicate:  // committed earlier; nothing done
  case docket::DispatchOutcome::kUnhandled:         // no handler; marked processed (UnhandledTypes)
    msg.ack();
}
// An exception (handler failure, unknown type, bad payload, database failure) means
// nothing was committed: do not ack, let the transport redeliver.
  // clang-format on
}

}  // namespace docs_inbox_using_it

namespace docs_inbox_portable_sql {

struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";
  std::string order_id;
  std::int64_t cents = 0;
  docket::Timestamp due;
};
void to_json(nlohmann::json& json, const OrderPlaced& e);
void from_json(const nlohmann::json& json, OrderPlaced& e);

void register_billing(docket::HandlerRegistry& handlers) {
  // clang-format off
handlers.on([](const OrderPlaced& e, docket::SqlTransaction& tx, docket::HandlerContext&) {
  tx.execute("INSERT INTO invoices (order_id, cents, due) VALUES ($1, $2, $3)",
             {e.order_id, e.cents, e.due});              // $1, $2, ... on both stores
  auto rows = tx.fetch("SELECT count(*) FROM invoices WHERE order_id = $1", {e.order_id});
});
  // clang-format on
}

docket::InboxOptions unhandled_types() {
  // clang-format off
docket::InboxOptions options("billing", docket::DedupCheck::kBeforeHandlers, nullptr,
                             docket::UnhandledTypes::kMarkProcessed);
  // clang-format on
  return options;
}

}  // namespace docs_inbox_portable_sql

namespace docs_inbox_pull {

// A window of a feed the application reads (the snippet's `feed`): its message ids, an
// envelope per id, and the position to resume after.
struct FeedWindow {
  std::span<const std::string> ids() const;
  docket::Envelope envelope(const std::string& id) const;
  std::string high_water_mark() const;
};
struct Feed {
  FeedWindow read_from(const std::string& position) const;
};
std::string rewind(const std::string& position, int overlap);

void pull(docket::InboxStore* store, const docket::InboxDispatcher& inbox, const Feed& feed,
          int overlap) {
  // clang-format off
auto& checkpoints = store->checkpoints();
auto since = checkpoints.get("feed-reader").value_or("0");
auto window = feed.read_from(rewind(since, overlap));           // overlap the checkpoint
for (const auto& id : store->filter_unprocessed("feed-reader", window.ids()))
  inbox.dispatch(window.envelope(id));
checkpoints.set("feed-reader", window.high_water_mark());
  // clang-format on
}

}  // namespace docs_inbox_pull
