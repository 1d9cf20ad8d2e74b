// docket bench claim, events and inbox on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL;
// missing fails the test): the document providers' bench cases
// (tests/tool/document_bench_cases.h) under table prefixes of the test's own.
#include <gtest/gtest.h>

#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "tool/document_bench_cases.h"

namespace docket::testing {
namespace {

// A claim cycle is the store's own two requests and the handler's effect PutItem, as
// Powertools' three; the raw side's tables are under its table_prefix.
INSTANTIATE_TEST_SUITE_P(DynamoDb, DocumentBench,
                         ::testing::Values(DocumentBenchCase{
                             .make = &bench_database<test_support::DynamoDbTables>,
                             .raw_prefix_option = "table_prefix",
                             .claim_messages = 300,
                             .redelivered_claim_messages = 300,
                             .claim_round_trips = 3.0,
                             .redelivery_round_trips = 1.0}));

}  // namespace
}  // namespace docket::testing
