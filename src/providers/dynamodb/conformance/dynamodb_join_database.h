// The DynamoDB provider in the suites that run stores inside an inbox handler's unit of
// work (tests/conformance/eventsourcing/join_databases.h): its inbox, outbox and saga
// stores under a table prefix of their own on the DynamoDB Local server of
// DOCKET_TEST_DYNAMODB_URL. Its event store joins no unit of work, so the event
// suites do not run on it.
#ifndef DOCKET_PROVIDERS_DYNAMODB_CONFORMANCE_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_DYNAMODB_CONFORMANCE_JOIN_DATABASE_H_

#include "conformance/eventsourcing/url_join_database.h"
#include "docket/dynamodb/transaction.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::conformance {

inline constexpr char kProviderName[] = "dynamodb";

using JoinDatabase =
    ::docket::conformance::eventsourcing::UrlJoinDatabase<test_support::DynamoDbTables, Transaction,
                                                          kProviderName>;

}  // namespace docket::dynamodb::conformance

#endif  // DOCKET_PROVIDERS_DYNAMODB_CONFORMANCE_JOIN_DATABASE_H_
