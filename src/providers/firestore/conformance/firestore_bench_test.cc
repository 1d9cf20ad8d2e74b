// docket bench claim, events and inbox on the Firestore emulator
// (DOCKET_TEST_FIRESTORE_URL; missing fails the test): the document providers' bench
// cases (tests/tool/document_bench_cases.h) under collection prefixes of the test's own.
#include <gtest/gtest.h>

#include "providers/firestore/tests/firestore_collections.h"
#include "tool/document_bench_cases.h"

namespace docket::testing {
namespace {

// A claim cycle is the store's own two commits (the claim's of a new entry, and the mark
// under the claim's update_time) and the handler's effect commit; a
// redelivery is the refused commit and the read that finds the entry processed. The raw
// side's collections are under its prefix.
INSTANTIATE_TEST_SUITE_P(Firestore, DocumentBench,
                         ::testing::Values(DocumentBenchCase{
                             .make = &bench_database<test_support::FirestoreCollections>,
                             .raw_prefix_option = "prefix",
                             .claim_messages = 200,
                             .redelivered_claim_messages = 100,
                             .claim_round_trips = 3.0,
                             .redelivery_round_trips = 2.0}));

}  // namespace
}  // namespace docket::testing
