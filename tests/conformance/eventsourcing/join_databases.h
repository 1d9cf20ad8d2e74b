// The providers whose stores join an inbox's unit of work, for the suites that run
// stores inside an inbox handler, as gtest type lists of JoinCase (join_case.h), from
// the providers with src/providers/<name>/conformance/<name>_join_database.h (listed by
// join_databases.cmake):
//   JoinDatabases       every one: its inbox, outbox and saga stores join
//                       (handler_saga_test.cc, tests/sagas)
//   EventJoinDatabases  those whose event store joins too (handler_append_test.cc)
//   FeedJoinDatabases   those of them whose event store has a feed a projection builds
//                       a read model from in the provider's transaction
//                       (tests/projections)
// Built only where two providers join, since each provider's refusals name another one.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "conformance/eventsourcing/join_database_list.h"
#include "docket/core/error.h"

namespace docket::conformance::eventsourcing {

using JoinDatabases = AsTypes<JoinCaseList>::type;
using EventJoinDatabases = AsTypes<Filtered<JoinsEventsTrait, JoinCaseList>::type>::type;
using FeedJoinDatabases = AsTypes<Filtered<FeedsReadModelsTrait, JoinCaseList>::type>::type;

// Runs `call`, expecting ConfigurationError whose message names every one of `mentions`.
inline void expect_configuration_error(const std::function<void()>& call,
                                       const std::vector<std::string>& mentions) {
  try {
    call();
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    for (const std::string& mention : mentions) {
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos)
          << "'" << e.what() << "' should mention '" << mention << "'";
    }
  }
}

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_DATABASES_H_
