// The Firestore provider in the suites that run stores inside an inbox handler's unit
// of work (tests/conformance/eventsourcing/join_databases.h): its inbox, outbox and saga
// stores under a collection prefix of their own on the Cloud Firestore emulator of
// DOCKET_TEST_FIRESTORE_URL. Its event store joins no unit of work, so the event
// suites do not run on it.
#ifndef DOCKET_PROVIDERS_FIRESTORE_CONFORMANCE_JOIN_DATABASE_H_
#define DOCKET_PROVIDERS_FIRESTORE_CONFORMANCE_JOIN_DATABASE_H_

#include "conformance/eventsourcing/url_join_database.h"
#include "docket/firestore/transaction.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::firestore::conformance {

inline constexpr char kProviderName[] = "firestore";

using JoinDatabase =
    ::docket::conformance::eventsourcing::UrlJoinDatabase<test_support::FirestoreCollections,
                                                          Transaction, kProviderName>;

}  // namespace docket::firestore::conformance

#endif  // DOCKET_PROVIDERS_FIRESTORE_CONFORMANCE_JOIN_DATABASE_H_
