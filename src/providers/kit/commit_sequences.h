// Numbering a unit's sequenced writes when it commits, once for every document provider
// that draws outbox sequences from a counter at commit (DynamoDB, Firestore): the
// writes of each counter, in staging order, take the numbers of one draw of as many,
// last - n + 1 .. last, so that a unit of n messages costs one counter request, and a
// sequence is invisible only while its commit is in flight.
//
//   kit::number_at_commit<SequenceCounter>(
//       writes.size(),
//       [&](std::size_t i) { return counter of write i, or nullptr },
//       [&](const SequenceCounter& counter, std::int64_t n) { return last of n drawn },
//       [&](std::size_t i, std::int64_t sequence) { write sequence into write i });
//
// Internal to docket. Thread-safety: as the callbacks'.
#ifndef DOCKET_PROVIDERS_KIT_COMMIT_SEQUENCES_H_
#define DOCKET_PROVIDERS_KIT_COMMIT_SEQUENCES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace docket::kit {

// `Counter` is equality-comparable; counter_of returns a pointer valid until this
// returns. Draws in the order each counter first appears.
template <typename Counter, typename CounterOf, typename Draw, typename Number>
void number_at_commit(std::size_t writes, const CounterOf& counter_of, const Draw& draw,
                      const Number& number) {
  // A unit has one counter in practice (the outbox's of its URL); a list keeps the
  // order of first appearance without hashing.
  std::vector<std::pair<const Counter*, std::vector<std::size_t>>> by_counter;
  for (std::size_t i = 0; i < writes; ++i) {
    const Counter* counter = counter_of(i);
    if (counter == nullptr) {
      continue;
    }
    auto group = std::find_if(by_counter.begin(), by_counter.end(),
                              [&](const auto& known) { return *known.first == *counter; });
    if (group == by_counter.end()) {
      group = by_counter.insert(by_counter.end(), {counter, {}});
    }
    group->second.push_back(i);
  }
  for (const auto& [counter, indexes] : by_counter) {
    const auto count = static_cast<std::int64_t>(indexes.size());
    std::int64_t sequence = draw(*counter, count) - count;
    for (const std::size_t i : indexes) {
      number(i, ++sequence);
    }
  }
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_COMMIT_SEQUENCES_H_
