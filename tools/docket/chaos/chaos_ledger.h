// What billing keeps beside its invoices in a `docket chaos` run, so that the event
// and saga stores face the same kills as the inbox: for each order invoiced, in the
// same unit of work, an OrderInvoiced event appended to its customer's stream and the
// customer's account saga (the count of orders invoiced) saved at its next version.
// A run has kChaosCustomers customers; order n belongs to customer n % kChaosCustomers.
//
// Afterwards each customer's stream must hold versions 0..N-1 without a gap, one event
// per invoiced order of that customer, none twice; and its saga must be at version N-1
// with the count N: one save per order, none lost, none repeated.
//
// Only stores that join the inbox's unit of work (capabilities().joins_handler_writes)
// take part; the check says which did.
//
// Thread-safety: a ChaosLedger may be used from many threads, each with its own
// transaction.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_LEDGER_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_LEDGER_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "docket/core/handler_transaction.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/sagas/saga_store.h"

namespace docket::tool {

inline constexpr std::size_t kChaosCustomers = 8;

struct LedgerCheck {
  bool events_checked = false;  // the event store joins the inbox's unit of work
  bool sagas_checked = false;   // the saga store does
  std::int64_t events = 0;
  std::int64_t version_gaps = 0;     // streams whose versions are not 0..N-1
  std::int64_t events_doubled = 0;   // orders with more than one event
  std::int64_t events_lost = 0;      // invoiced orders without an event
  std::int64_t saga_mismatches = 0;  // accounts whose version or count is not N-1, N

  bool ok() const noexcept {
    return version_gaps == 0 && events_doubled == 0 && events_lost == 0 && saga_mismatches == 0;
  }
};

class ChaosLedger {
 public:
  // Opens the event and saga stores of `store_url`.
  explicit ChaosLedger(std::string_view store_url);

  // In billing's handler: appends the order's event and saves its customer's account
  // through `tx`. Throws ConcurrencyConflictError when the account moved meanwhile (the
  // dispatch rolls back and the message comes again).
  void record(HandlerTransaction& tx, std::string_view order_id) const;

  // Reads every customer of `run` back; `invoiced` holds the run's invoiced orders.
  LedgerCheck check(std::string_view run, const std::set<std::string, std::less<>>& invoiced) const;

 private:
  std::unique_ptr<EventStore> events_;
  std::unique_ptr<SagaStore> sagas_;
  bool events_join_ = false;
  bool sagas_join_ = false;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_LEDGER_H_
