// A small generic helper for event-sourced aggregates: describe how events change a
// state, and AggregateRepository loads the state (snapshot + later events), runs a
// decision on it and appends the decided events at the loaded version.
//
//   struct Account { std::int64_t balance = 0; };
//   AggregateSpec<Account> spec{.aggregate_type = "account",
//                               .apply = [](Account& a, const RecordedEvent& e) { ... }};
//   AggregateRepository<Account> accounts(events, spec);
//   auto r = accounts.execute(tenant, "A-1", [](const Account& a) {
//     return std::vector<NewEvent>{{.type = "deposited", .payload = "100"}};
//   });
//   if (r.conflict) { /* someone else appended first: nothing was written */ }
//
// Inside an inbox handler, execute(ctx.transaction(), tenant, id, decide) appends in
// the handler's unit of work. typed_aggregate.h wraps this with C++ event types.
//
// Snapshots are optional. With a SnapshotStore and both codecs, load() starts from
// the stream's snapshot and replays only later events; a missing snapshot, or one the
// decoder cannot read (it throws a std::exception or returns nullopt), falls back to a
// full rebuild from the events, and the result says which happened. When a load
// replays at least `snapshot_after_events` events, it saves a fresh snapshot (the
// state at a committed version is a fact, so saving before any decision is safe).
//
// Invariant: execute() appends with ExpectedVersion::exactly(loaded version) (or
// no_stream() for a new aggregate), so a decision taken on stale state never lands:
// it comes back as a conflict, with nothing written.
//
// Thread-safety: a repository is immutable after construction and may be used from
// many threads if its stores, codecs and apply function may.
#ifndef DOCKET_EVENTSOURCING_AGGREGATE_H_
#define DOCKET_EVENTSOURCING_AGGREGATE_H_

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/handler_transaction.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/snapshot_store.h"

namespace docket {

template <typename State>
struct AggregateSpec {
  std::string aggregate_type;
  std::function<void(State&, const RecordedEvent&)> apply;  // required
  State initial{};  // the state of an aggregate without events

  // Snapshots: both codecs, or neither. 0 = never save one from load().
  std::function<std::string(const State&)> encode_snapshot{};
  std::function<std::optional<State>(std::string_view payload)> decode_snapshot{};
  std::size_t snapshot_after_events = 0;
};

enum class SnapshotUse {
  kNotConfigured,  // no snapshot store or no decoder: rebuilt from events
  kMissing,        // no snapshot stored: rebuilt from events
  kUsed,           // started from the snapshot
  kUnreadable,     // the decoder refused it: rebuilt from events (see snapshot_problem)
};

template <typename State>
struct LoadedAggregate {
  State state;
  std::int64_t version = kNoStreamVersion;  // the stream version `state` reflects
  SnapshotUse snapshot = SnapshotUse::kNotConfigured;
  std::string snapshot_problem{};  // why the snapshot was unreadable
  std::size_t events_replayed = 0;
};

template <typename State>
struct CommandResult {
  State state;           // after the appended events; as loaded when nothing was appended
  std::int64_t version;  // the stream version `state` reflects
  std::optional<VersionConflict> conflict{};  // set when another writer was first
  std::vector<AppendedEvent> appended{};      // empty on conflict or when none decided
};

// What Aggregate's template members need from the library, declared here because a
// template's callees must be; not part of the API (nothing outside this header names it).
namespace aggregate_internal {
// Throws ConfigurationError when the spec is unusable (no apply, one codec only, ...).
void check_aggregate_spec(std::string_view aggregate_type, bool has_apply, bool has_encoder,
                          bool has_decoder, std::size_t snapshot_after_events,
                          bool has_snapshot_store);
// The event as the store now holds it, from what was appended and what was assigned.
RecordedEvent recorded_event(const StreamId& stream, const NewEvent& event,
                             const AppendedEvent& assigned);
}  // namespace aggregate_internal

template <typename State>
class AggregateRepository {
 public:
  // Throws ConfigurationError for an unusable spec. The stores must outlive this.
  AggregateRepository(EventStore& events, AggregateSpec<State> spec,
                      SnapshotStore* snapshots = nullptr)
      : events_(events), spec_(std::move(spec)), snapshots_(snapshots) {
    aggregate_internal::check_aggregate_spec(spec_.aggregate_type, static_cast<bool>(spec_.apply),
                                             static_cast<bool>(spec_.encode_snapshot),
                                             static_cast<bool>(spec_.decode_snapshot),
                                             spec_.snapshot_after_events, snapshots_ != nullptr);
  }

  LoadedAggregate<State> load(const TenantId& tenant, std::string_view aggregate_id) const {
    return load(StreamId(tenant, spec_.aggregate_type, aggregate_id));
  }

  // Loads, calls `decide(const State&) -> std::vector<NewEvent>` and appends what it
  // returns (nothing when empty). Exceptions from `decide` propagate; nothing is written.
  template <typename Decide>
  CommandResult<State> execute(const TenantId& tenant, std::string_view aggregate_id,
                               Decide&& decide) const {
    return run(
        StreamId(tenant, spec_.aggregate_type, aggregate_id), std::forward<Decide>(decide),
        [this](const StreamId& stream, ExpectedVersion expected, std::span<const NewEvent> events) {
          return events_.append(stream, expected, events);
        });
  }

  // The same, the append joining `transaction`: the unit of work of the inbox dispatch
  // running the calling handler (HandlerContext::transaction()), so the decided events
  // commit with the message's dedup record and the handler's other writes, or not at
  // all. The state is loaded from what is committed, and appended at that version: a
  // writer that came first is a conflict in the result, nothing of this call written;
  // a handler that throws then (ConcurrencyConflictError, as AppendResult::success()
  // does) has the message delivered again, to a fresh load. Throws ConfigurationError
  // where the event store cannot write in `transaction` (EventStore::append).
  //
  // A load here saves no snapshot: the snapshot store writes on a connection of its own,
  // which on SQLite would wait for the write lock the unit holds. The next load outside
  // a unit (load(), or execute() without a transaction) saves it.
  template <typename Decide>
  CommandResult<State> execute(HandlerTransaction& transaction, const TenantId& tenant,
                               std::string_view aggregate_id, Decide&& decide) const {
    return run(
        StreamId(tenant, spec_.aggregate_type, aggregate_id), std::forward<Decide>(decide),
        [this, &transaction](const StreamId& stream, ExpectedVersion expected,
                             std::span<const NewEvent> events) {
          return events_.append(transaction, stream, expected, events);
        },
        SnapshotSaving::kNever);
  }

 private:
  // Whether a load may save a snapshot (AggregateSpec::snapshot_after_events).
  enum class SnapshotSaving { kAfterLongReplays, kNever };

  template <typename Decide, typename Append>
  CommandResult<State> run(const StreamId& stream, Decide&& decide, const Append& append,
                           SnapshotSaving saving = SnapshotSaving::kAfterLongReplays) const {
    LoadedAggregate<State> loaded = load(stream, saving);
    std::vector<NewEvent> decided = std::forward<Decide>(decide)(std::as_const(loaded.state));
    CommandResult<State> result{std::move(loaded.state), loaded.version};
    if (decided.empty()) {
      return result;
    }
    const auto expected = result.version == kNoStreamVersion
                              ? ExpectedVersion::no_stream()
                              : ExpectedVersion::exactly(result.version);
    AppendResult appended = append(stream, expected, std::span<const NewEvent>(decided));
    if (appended.is_conflict()) {
      result.conflict = appended.conflict();
      return result;
    }
    result.appended = appended.success().events;
    for (std::size_t i = 0; i < decided.size(); ++i) {
      spec_.apply(result.state,
                  aggregate_internal::recorded_event(stream, decided[i], result.appended[i]));
    }
    result.version = appended.success().new_version;
    return result;
  }

  LoadedAggregate<State> load(const StreamId& stream,
                              SnapshotSaving saving = SnapshotSaving::kAfterLongReplays) const {
    LoadedAggregate<State> loaded{spec_.initial};
    if (snapshots_ != nullptr && spec_.decode_snapshot) {
      start_from_snapshot(stream, loaded);
    }
    for (const RecordedEvent& event : events_.load(stream, loaded.version + 1)) {
      spec_.apply(loaded.state, event);
      loaded.version = event.version;
      ++loaded.events_replayed;
    }
    if (saving == SnapshotSaving::kAfterLongReplays && snapshots_ != nullptr &&
        spec_.snapshot_after_events > 0 && loaded.events_replayed >= spec_.snapshot_after_events) {
      snapshots_->save(stream, loaded.version, spec_.encode_snapshot(loaded.state));
    }
    return loaded;
  }

  void start_from_snapshot(const StreamId& stream, LoadedAggregate<State>& loaded) const {
    std::optional<Snapshot> snapshot = snapshots_->load(stream);
    if (!snapshot) {
      loaded.snapshot = SnapshotUse::kMissing;
      return;
    }
    std::optional<State> decoded;
    try {
      decoded = spec_.decode_snapshot(snapshot->payload);
    } catch (const std::exception& e) {
      // Not swallowed: reported in the result, and the events rebuild the state.
      loaded.snapshot_problem = e.what();
    }
    if (!decoded) {
      loaded.snapshot = SnapshotUse::kUnreadable;
      if (loaded.snapshot_problem.empty()) {
        loaded.snapshot_problem = "the snapshot decoder returned no state";
      }
      return;
    }
    loaded.state = std::move(*decoded);
    loaded.version = snapshot->version;
    loaded.snapshot = SnapshotUse::kUsed;
  }

  EventStore& events_;
  AggregateSpec<State> spec_;
  SnapshotStore* snapshots_;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_AGGREGATE_H_
