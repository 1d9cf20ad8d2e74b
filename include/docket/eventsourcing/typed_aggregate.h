// Typed aggregates: an event-sourced aggregate's state, events and decisions as C++
// types, over AggregateRepository (aggregate.h). Each event type names itself once
// (docket/core/message_type.h) and the state evolves by one overload per event type:
//
//   struct Deposited {
//     static constexpr std::string_view kMessageType = "deposited";
//     std::int64_t cents = 0;
//   };
//   struct Withdrawn { ... "withdrawn" ... };
//   struct Account {
//     std::int64_t balance = 0;
//     void evolve(const Deposited& e) { balance += e.cents; }
//     void evolve(const Withdrawn& e) { balance -= e.cents; }
//   };
//   NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Account, balance)   // only for snapshots
//
//   docket::TypedAggregateRepository<Account, Deposited, Withdrawn> accounts(events, "account");
//   auto r = accounts.execute(tenant, "A-1", [](const Account& a) -> decltype(accounts)::Decision {
//     if (a.balance < 100) return {};                      // nothing to append
//     return {Withdrawn{100}};
//   });
//
// `evolve` is the state's member evolve(const E&), or a free evolve(State&, const E&)
// found by argument-dependent lookup; a missing one fails to compile naming the event
// type. `decide` returns a Decision (the events, in order), one event, or a
// std::variant of them. Events are encoded and decoded with each type's codec
// (MessageCodec<E>: its own Codec, else JSON); snapshots, when the repository has a
// SnapshotStore, with the state's (MessageCodec<State>).
//
// Invariants: as AggregateRepository's (a decision on stale state never lands; it comes
// back as a conflict, nothing written). The event types' names are distinct: a second
// type under a name already taken is refused at construction, naming both. A stored
// event whose type is none of them is an InvalidInputError naming the stream, its
// version and the types the aggregate knows: never skipped.
//
// Thread-safety: immutable after construction; usable from many threads where its
// stores are.
#ifndef DOCKET_EVENTSOURCING_TYPED_AGGREGATE_H_
#define DOCKET_EVENTSOURCING_TYPED_AGGREGATE_H_

#include <array>
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include "docket/core/handler_transaction.h"
#include "docket/core/message_type.h"
#include "docket/eventsourcing/aggregate.h"

namespace docket {

// What typed aggregates' templates need from the library; not part of the API.
namespace typed_aggregate_internal {
// Throws ConfigurationError when two of `types` share a name, naming both C++ types.
void check_event_names(std::string_view aggregate_type, std::span<const std::string_view> names,
                       std::span<const std::type_info* const> types);
// The error for a stored event of a type the aggregate does not know.
[[noreturn]] void throw_unknown_event(const RecordedEvent& event,
                                      std::span<const std::string_view> known);
// The error for a stored event its type's codec could not decode.
[[noreturn]] void throw_undecodable_event(const RecordedEvent& event, const std::type_info& type,
                                          std::string_view problem);
}  // namespace typed_aggregate_internal

// True when State evolves by E: a member evolve(const E&), or evolve(State&, const E&).
template <class State, class E>
concept EvolvesBy = requires(State& s, const E& e) {
  s.evolve(e);
}
|| requires(State& s, const E& e) {
  evolve(s, e);
};

template <class State, NamedMessage... Events>
requires(sizeof...(Events) > 0) class TypedAggregateRepository {
 public:
  // The events a decision appends, in order.
  using Decision = std::vector<std::variant<Events...>>;

  // Without snapshots. Throws ConfigurationError for an empty aggregate type or two
  // event types under one name. The store must outlive the repository.
  TypedAggregateRepository(EventStore& events, std::string aggregate_type)
      : repository_(events, spec(std::move(aggregate_type))) {}

  // With snapshots: a load that replays at least `snapshot_after_events` events saves
  // one (0: never saved by loads, still used). Both stores must outlive the repository.
  TypedAggregateRepository(EventStore& events, std::string aggregate_type, SnapshotStore& snapshots,
                           std::size_t snapshot_after_events)
      : repository_(events, with_snapshots(spec(std::move(aggregate_type)), snapshot_after_events),
                    &snapshots) {}

  LoadedAggregate<State> load(const TenantId& tenant, std::string_view aggregate_id) const {
    return repository_.load(tenant, aggregate_id);
  }

  // Loads, calls `decide(const State&)` and appends what it decided (AggregateRepository::
  // execute). Exceptions from `decide` and from the codecs propagate; nothing is written.
  template <class Decide>
  CommandResult<State> execute(const TenantId& tenant, std::string_view aggregate_id,
                               Decide&& decide) const {
    return repository_.execute(tenant, aggregate_id, encoded(std::forward<Decide>(decide)));
  }

  // The same inside an inbox handler's unit of work (AggregateRepository::execute with a
  // transaction): the events commit with the message, or not at all.
  template <class Decide>
  CommandResult<State> execute(HandlerTransaction& transaction, const TenantId& tenant,
                               std::string_view aggregate_id, Decide&& decide) const {
    return repository_.execute(transaction, tenant, aggregate_id,
                               encoded(std::forward<Decide>(decide)));
  }

 private:
  static constexpr std::array<std::string_view, sizeof...(Events)> kNames{
      kMessageTypeOf<Events>...};

  static AggregateSpec<State> spec(std::string aggregate_type) {
    static_assert((EvolvesBy<State, Events> && ...),
                  "docket::TypedAggregateRepository: the state has no evolve for one of the "
                  "event types; give it a member `void evolve(const E&)` (or a free "
                  "`evolve(State&, const E&)`) for every event type listed");
    static constexpr std::array<const std::type_info*, sizeof...(Events)> kTypes{
        &typeid(Events)...};
    typed_aggregate_internal::check_event_names(aggregate_type, kNames, kTypes);
    return AggregateSpec<State>{.aggregate_type = std::move(aggregate_type), .apply = &apply};
  }

  static AggregateSpec<State> with_snapshots(AggregateSpec<State> spec, std::size_t after) {
    spec.encode_snapshot = [](const State& state) { return MessageCodec<State>{}.encode(state); };
    spec.decode_snapshot = [](std::string_view payload) -> std::optional<State> {
      return MessageCodec<State>{}.decode(payload);
    };
    spec.snapshot_after_events = after;
    return spec;
  }

  // Decodes `event` as the listed type its name is, and evolves `state` by it.
  static void apply(State& state, const RecordedEvent& event) {
    const bool known = (apply_as<Events>(state, event) || ...);
    if (!known) {
      typed_aggregate_internal::throw_unknown_event(event, kNames);
    }
  }

  template <class E>
  static bool apply_as(State& state, const RecordedEvent& event) {
    if (event.type != kMessageTypeOf<E>) {
      return false;
    }
    std::optional<E> decoded;
    try {
      decoded.emplace(MessageCodec<E>{}.decode(event.payload));
    } catch (const std::exception& e) {
      typed_aggregate_internal::throw_undecodable_event(event, typeid(E), e.what());
    }
    if constexpr (requires { state.evolve(*decoded); }) {
      state.evolve(*decoded);
    } else {
      evolve(state, *decoded);
    }
    return true;
  }

  template <class Decide>
  static auto encoded(Decide&& decide) {
    return [&decide](const State& state) {
      return to_new_events(std::forward<Decide>(decide)(state));
    };
  }

  static NewEvent to_new_event(const std::variant<Events...>& event) {
    return std::visit(
        [](const auto& e) {
          using E = std::decay_t<decltype(e)>;
          return NewEvent{.type = std::string(kMessageTypeOf<E>),
                          .payload = MessageCodec<E>{}.encode(e)};
        },
        event);
  }

  static std::vector<NewEvent> to_new_events(const Decision& decision) {
    std::vector<NewEvent> events;
    events.reserve(decision.size());
    for (const auto& event : decision) {
      events.push_back(to_new_event(event));
    }
    return events;
  }
  static std::vector<NewEvent> to_new_events(const std::variant<Events...>& event) {
    return {to_new_event(event)};
  }
  template <class E>
  requires(std::is_same_v<E, Events> ||
           ...) static std::vector<NewEvent> to_new_events(const E& event) {
    return {to_new_event(std::variant<Events...>(event))};
  }

  AggregateRepository<State> repository_;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_TYPED_AGGREGATE_H_
