// The Redis provider in the suites that run stores inside an inbox handler's unit of
// work (tests/conformance/eventsourcing/join_databases.h): its inbox, outbox, event and
// saga stores under a key prefix of their own on the Redis server of
// DOCKET_TEST_REDIS_URL, all writing through one docket::redis::Transaction whose unit
// commits them in one script run. It has no ReadModel: no projection suite builds a
// read model in a Redis transaction.
#ifndef DOCKET_PROVIDERS_REDIS_CONFORMANCE_REDIS_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_REDIS_CONFORMANCE_REDIS_JOIN_DATABASE_H_

#include "conformance/eventsourcing/url_join_database.h"
#include "docket/redis/transaction.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::redis::conformance {

inline constexpr char kProviderName[] = "redis";

using JoinDatabase =
    ::docket::conformance::eventsourcing::UrlJoinDatabase<test_support::RedisDatabase, Transaction,
                                                          kProviderName>;

}  // namespace docket::redis::conformance

#endif  // DOCKET_PROVIDERS_REDIS_CONFORMANCE_REDIS_JOIN_DATABASE_H_
