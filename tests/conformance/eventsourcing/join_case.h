// One case of the suites typed over JoinDatabases: a provider's JoinDatabase paired
// with another provider's ForeignStores, whose transactions its stores must refuse.
//
// A provider's JoinDatabase (src/providers/<name>/conformance/<name>_join_database.h) has
//   using Transaction = <the provider's handler transaction>;
//   using ReadModel = <the projections' read model, join_read_model.h>;
//   static constexpr std::string_view kProvider;          // provider_name()
//   open_inbox / open_outbox / open_events / open_sagas (const Clock&), all on one
//   database; open_other_inbox(const Clock&), an inbox on another database of that
//   provider; and other_database_mentions(), what a refusal of that inbox's
//   transaction names.
// open_events only where the provider's event store joins too (the suites of
// EventJoinDatabases, join_databases.h); ReadModel only where its event store also has
// a feed a projection reads (FeedJoinDatabases).
// Its ForeignStores has Transaction, kProvider and open_inbox / open_events /
// open_sagas (const Clock&).
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_CASE_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_CASE_H_

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "docket/core/clock.h"

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

// A list of cases, filtered into the gtest type lists of join_databases.h.
template <class... Cases>
struct JoinCases {};

// Whether the case's event store joins its inbox's unit of work.
template <class Case>
concept JoinsEvents = requires(Case& c, const Clock& clock) {
  c.open_events(clock);
};

// Whether, besides, a projection builds its read model from the event store's feed in
// the provider's transaction.
template <class Case>
concept FeedsReadModels = JoinsEvents<Case> && requires {
  typename Case::ReadModel;
};

template <class Case>
struct JoinsEventsTrait : std::bool_constant<JoinsEvents<Case>> {};
template <class Case>
struct FeedsReadModelsTrait : std::bool_constant<FeedsReadModels<Case>> {};

// The cases of `List` for which Keep<Case>::value holds, in order.
template <template <class> class Keep, class List>
struct Filtered;
template <template <class> class Keep>
struct Filtered<Keep, JoinCases<>> {
  using type = JoinCases<>;
};
template <template <class> class Keep, class First, class... Rest>
struct Filtered<Keep, JoinCases<First, Rest...>> {
  template <class... Kept>
  static JoinCases<First, Kept...> with_first(JoinCases<Kept...>);
  using rest = typename Filtered<Keep, JoinCases<Rest...>>::type;
  using type =
      std::conditional_t<Keep<First>::value, decltype(with_first(std::declval<rest>())), rest>;
};

template <class List>
struct AsTypes;
template <class... Cases>
struct AsTypes<JoinCases<Cases...>> {
  using type = ::testing::Types<Cases...>;
};

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_JOIN_CASE_H_
