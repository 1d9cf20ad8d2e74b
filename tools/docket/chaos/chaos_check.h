// What `docket chaos` verifies once a run drained, with the store's own reads: every
// order invoiced exactly once, every outbox message published, and the inbox's dedup
// records and the invoices in step (a dedup record without its invoice is a lost
// effect; an invoice without its dedup record an effect the inbox would repeat).
//
// Thread-safety: a free function over its arguments.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_CHECK_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_CHECK_H_

#include <cstdint>
#include <string_view>

#include "chaos_ledger.h"
#include "order_services.h"

namespace docket::tool {

struct ChaosCheck {
  std::int64_t orders = 0;    // placed (order row and message committed together)
  std::int64_t invoices = 0;  // written by billing's handler
  std::int64_t lost = 0;      // orders never invoiced
  std::int64_t doubled = 0;   // orders invoiced more than once
  std::int64_t phantom = 0;   // invoices of an order that does not exist

  // The outbox and inbox side, where the outbox can be read as a feed
  // (StoreCapabilities::feed); otherwise outbox_checked is false and they stay 0.
  bool outbox_checked = false;
  std::int64_t messages = 0;                // the run's outbox messages
  std::int64_t unpublished = 0;             // ... not marked done by a relay
  std::int64_t orders_without_message = 0;  // order committed, its message not (or twice)
  std::int64_t dedup_without_effect = 0;    // billing's dedup record, no invoice
  std::int64_t effect_without_dedup = 0;    // an invoice, no dedup record

  // The customers' streams and account sagas (chaos_ledger.h).
  LedgerCheck ledger;

  bool ok() const noexcept {
    return lost == 0 && doubled == 0 && phantom == 0 && unpublished == 0 &&
           orders_without_message == 0 && dedup_without_effect == 0 && effect_without_dedup == 0 &&
           ledger.ok();
  }
};

// Reads the run `run` back from the store at `store_url` and its order services.
ChaosCheck check_chaos_run(std::string_view store_url, const examples::OrderServices& services,
                           std::string_view run);

// How many of the run's orders are placed and how many of those are invoiced: the
// drain's progress, cheaper than a whole check.
struct ChaosProgress {
  std::int64_t orders = 0;
  std::int64_t invoiced = 0;  // distinct orders with at least one invoice
};
ChaosProgress chaos_progress(const examples::OrderServices& services, std::string_view run);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_CHECK_H_
