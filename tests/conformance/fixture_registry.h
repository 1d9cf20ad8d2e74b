// The cases a conformance suite runs, registered by the providers' fixtures themselves:
// a fixture file (src/providers/<name>/conformance/<suite>_fixture.cc) defines, at
// namespace scope,
//
//   const FixtureRegistrar<ProviderCase> kSqliteFileInbox{{.name = "sqlite_file",
//       .provider = "sqlite", .make = ..., <the suite's traits>}};
//
// and the suite instantiates its tests over FixtureRegistry<ProviderCase>::all() (or
// where(trait)). A registrar runs during static initialisation; gtest evaluates
// INSTANTIATE_TEST_SUITE_P's generators in InitGoogleTest, after every static
// initialiser of the program has run, so every registered case is seen whichever
// translation unit registered it. No suite file, CMake list or header names a provider.
//
// Case is the suite's case type: an aggregate with `std::string name` (the test-name
// suffix: "sqlite_file") and `std::string provider` (the registry name of the provider,
// which its stores' provider_name() returns: "sqlite"), plus what the suite needs.
//
// Order: cases come in the order of the provider registry (builtin_providers.cmake's
// list), and by name within one provider, whatever the order of static initialisation;
// so test names and their order are stable from build to build.
//
// Thread-safety: registration happens during static initialisation, reads after it.
#ifndef DOCKET_TESTS_CONFORMANCE_FIXTURE_REGISTRY_H_
#define DOCKET_TESTS_CONFORMANCE_FIXTURE_REGISTRY_H_

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/registry.h"

namespace docket::conformance {

namespace fixture_registry_detail {

// The provider's place in this build's registry; throws when the build has no such
// provider (a fixture compiled without its provider, or a misspelt name).
inline std::size_t provider_rank(std::string_view provider, std::string_view case_name) {
  const auto providers = providers::Registry::builtin().providers();
  for (std::size_t i = 0; i < providers.size(); ++i) {
    if (providers[i]->name == provider) {
      return i;
    }
  }
  throw std::logic_error("conformance fixture '" + std::string(case_name) + "' names provider '" +
                         std::string(provider) +
                         "', which this build does not register: name the provider as its "
                         "registration does (src/providers/<name>/<name>_registration.cc)");
}

}  // namespace fixture_registry_detail

template <class Case>
class FixtureRegistry {
 public:
  static void add(Case registered) { cases().push_back(std::move(registered)); }

  // Every registered case, in registry order. Throws std::logic_error when two cases
  // share a name or one names no provider of this build.
  static std::vector<Case> all() {
    std::vector<std::pair<std::size_t, const Case*>> ranked;
    for (const Case& c : cases()) {
      ranked.emplace_back(fixture_registry_detail::provider_rank(c.provider, c.name), &c);
    }
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second->name < b.second->name;
    });
    std::vector<Case> sorted;
    for (const auto& [rank, c] : ranked) {
      if (!sorted.empty() && sorted.back().name == c->name) {
        throw std::logic_error("two conformance fixtures of one suite are named '" + c->name +
                               "': give each case a name of its own");
      }
      sorted.push_back(*c);
    }
    return sorted;
  }

  // The cases for which `keep(case)` holds, in the same order.
  template <class Predicate>
  static std::vector<Case> where(Predicate keep) {
    std::vector<Case> kept;
    for (Case& c : all()) {
      if (keep(c)) {
        kept.push_back(std::move(c));
      }
    }
    return kept;
  }

 private:
  // A function-local static: constructed on first use, so a registrar in any
  // translation unit finds it, whatever the order of static initialisation.
  static std::vector<Case>& cases() {
    static std::vector<Case> registered;
    return registered;
  }
};

// The providers of this build that offer a store (`offers(registration)`) but
// registered no case of `Case`'s suite: each suite's coverage test requires none, so
// that a provider cannot offer a store the suite of its SPI never ran against.
//
// A build may compile a provider whose suites another build runs (DOCKET_TEST_PROVIDERS,
// tests/CMakeLists.txt, which then defines DOCKET_PROVIDERS_TESTED_ELSEWHERE as their
// names, each followed by a space): that build's coverage tests answer for it.
template <class Case, class Offers>
std::vector<std::string> providers_offering_without_a_case(Offers offers) {
#ifdef DOCKET_PROVIDERS_TESTED_ELSEWHERE
  constexpr std::string_view kTestedElsewhere = DOCKET_PROVIDERS_TESTED_ELSEWHERE;
#else
  constexpr std::string_view kTestedElsewhere;
#endif
  const std::vector<Case> cases = FixtureRegistry<Case>::all();
  std::vector<std::string> missing;
  for (const providers::ProviderRegistration* provider :
       providers::Registry::builtin().providers()) {
    if (kTestedElsewhere.find(std::string(provider->name) + ' ') != std::string_view::npos) {
      continue;
    }
    const bool has_case = std::any_of(cases.begin(), cases.end(),
                                      [&](const Case& c) { return c.provider == provider->name; });
    if (offers(*provider) && !has_case) {
      missing.emplace_back(provider->name);
    }
  }
  return missing;
}

// Registers one case when constructed; define one per case at namespace scope of the
// fixture's file, under a name unique across the suite (the suites compile as unity
// batches).
template <class Case>
class FixtureRegistrar {
 public:
  explicit FixtureRegistrar(Case registered) { FixtureRegistry<Case>::add(std::move(registered)); }
};

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_FIXTURE_REGISTRY_H_
