// One case of the suites typed over JoinDatabases: a provider's JoinDatabase paired
// with another provider's ForeignStores, whose transactions its stores must refuse.
//
// A provider's JoinDatabase (src/providers/<name>/conformance/join_database.h) has
//   using Transaction = <the provider's handler transaction>;
//   using ReadModel = <the projections' read model, join_read_model.h>;
//   static constexpr std::string_view kProvider;          // provider_name()
//   open_inbox / open_outbox / open_events / open_sagas (const Clock&), all on one
//   database; open_other_inbox(const Clock&), an inbox on another database of that
//   provider; and other_database_mentions(), what a refusal of that inbox's
//   transaction names.
// Its ForeignStores has Transaction, kProvider and open_inbox / open_events /
// open_sagas (const Clock&).
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_CASE_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_CASE_H_

#include <string>

namespace docket::conformance::eventsourcing {

template <class Database, class ForeignStores>
struct JoinCase : Database {
  using Foreign = ForeignStores;
  Foreign foreign;
};

// Names each typed test by its provider ("FeedConsumer/postgres.ResumesFrom...").
struct JoinCaseNames {
  template <class Case>
  static std::string GetName(int) {
    return std::string(Case::kProvider);
  }
};

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_CASE_H_
