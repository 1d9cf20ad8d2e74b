// The read model the projection tests' handler writes in the inbox's unit of work, on
// each provider of FeedJoinDatabases: the provider's JoinDatabase::ReadModel
// (conformance/eventsourcing/join_read_model.h says what it holds and why a double
// application cannot pass unnoticed).
#ifndef DOCKET_TESTS_PROJECTIONS_READ_MODEL_H_
#define DOCKET_TESTS_PROJECTIONS_READ_MODEL_H_

#include "conformance/eventsourcing/join_databases.h"
#include "conformance/eventsourcing/join_read_model.h"

namespace docket::projection_tests {

using conformance::Applied;

template <class Database>
using ReadModel = typename Database::ReadModel;

}  // namespace docket::projection_tests

#endif  // DOCKET_TESTS_PROJECTIONS_READ_MODEL_H_
