// A store holding known counts for the store gauges (docket/prometheus/store_gauges.h),
// and the checks of a scrape against them: written through docket's own stores on any
// provider's URL, for what the provider offers (an outbox, a claim inbox, checkpoints
// with an event store whose feed has global positions).
//
//   outbox       orders: 1 done, 2 due, 1 scheduled (in an hour); nowhere: 1 parked
//   claim inbox  1 processed, 2 failed (due for a retry), 1 processing
//   projection   consumer "ledger" at checkpoint 2 of a feed of 3 events: lag 2
//
// Thread-safety: test code, one thread.
#ifndef DOCKET_TESTS_OBSERVABILITY_KNOWN_COUNTS_H_
#define DOCKET_TESTS_OBSERVABILITY_KNOWN_COUNTS_H_

#include <string>

#include "observability/exposition.h"

namespace docket::testing {

// What was written: the stores the provider offers.
struct KnownCounts {
  bool outbox = false;
  bool claim_inbox = false;
  bool projections = false;
};

KnownCounts write_known_counts(const std::string& url);

// Adds a GoogleTest failure for every gauge of `scraped` that is missing, untyped,
// unlabelled where it should be labelled, or off the counts `written`.
void expect_store_gauges(const Exposition& scraped, const KnownCounts& written);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_OBSERVABILITY_KNOWN_COUNTS_H_
