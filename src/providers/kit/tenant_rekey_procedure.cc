#include "providers/kit/tenant_rekey_procedure.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/sagas/saga_store.h"

namespace docket::kit {
namespace {

// Refusals listed in full before the rest are counted.
constexpr std::size_t kListedRefusals = 20;

// Why a tenant that names no records yet needs confirming.
[[noreturn]] void refuse_unknown_tenant(const TenantId& tenant) {
  throw InvalidInputError(
      "--tenant '" + tenant.value() + "' is neither the single-tenant default '" +
      std::string(kDefaultTenant) + "' nor the untenanted sentinel '" +
      std::string(kUntenantedSentinel) +
      "', and no stream or saga of the store is keyed under it yet. A mistyped tenant "
      "re-keys every record under well-formed keys that no reader ever asks for, and "
      "nothing reports it. Use '" +
      std::string(kDefaultTenant) + "' for a single-tenant deployment, '" +
      std::string(kUntenantedSentinel) +
      "' for one that never set a tenant scope, or pass --yes if '" + tenant.value() +
      "' is the tenant meant. Nothing was written");
}

// A legacy stream: its identity and its events' moves in version order.
struct StreamPlan {
  StreamId stream;
  std::vector<RekeyMove> moves;
};

struct SagaPlan {
  SagaId saga;
  RekeyMove move;
};

// A legacy stream or saga refused, named once: a stream by the first of its records
// refused, with how many were.
struct Refusal {
  RekeyKind kind = RekeyKind::kEvent;
  std::string text;  // "<where>: '<key>' <reason>"
  std::size_t records = 0;
};

struct Plan {
  std::vector<StreamPlan> streams;  // ordered by aggregate type, then id
  std::vector<SagaPlan> sagas;      // ordered by new key
  std::vector<Refusal> refusals;    // in the order found
};

class Planner {
 public:
  Planner(const TenantRekeyTarget& target, const TenantRekeyOptions& options, TenantId tenant)
      : target_(target), options_(options), tenant_(std::move(tenant)) {}

  Plan plan(const std::vector<LegacyRecord>& events, const std::vector<LegacyRecord>& sagas) {
    std::map<std::string, StreamPlan> streams;  // by aggregate type, then id
    for (const LegacyRecord& record : events) {
      plan_event(record, streams);
    }
    for (auto& [key, stream] : streams) {
      std::sort(stream.moves.begin(), stream.moves.end(),
                [](const RekeyMove& a, const RekeyMove& b) {
                  return a.record->version < b.record->version;
                });
      plan_.streams.push_back(std::move(stream));
    }
    for (const LegacyRecord& record : sagas) {
      plan_saga(record);
    }
    std::sort(plan_.sagas.begin(), plan_.sagas.end(),
              [](const SagaPlan& a, const SagaPlan& b) { return a.move.new_key < b.move.new_key; });
    return std::move(plan_);
  }

 private:
  // Refuses `record`; a stream is refused once, the first of its records named.
  void refuse(const LegacyRecord& record, const std::string& reason) {
    const std::string where = target_.where(record.kind);
    const auto [it, first] = refused_.emplace(where + '\n' + record.stream, plan_.refusals.size());
    if (first) {
      plan_.refusals.push_back(
          Refusal{.kind = record.kind, .text = where + ": '" + record.key + "' " + reason});
    }
    ++plan_.refusals[it->second].records;
  }

  // Whether `record` is one this run moves: under --only-named, only the records whose
  // own tenant field names the tenant.
  bool selected(const LegacyRecord& record) const {
    return !options_.only_named || record.tenant_field == tenant_.value();
  }

  // False (and refused) when another legacy record re-keys to the same record: the
  // same new key and version (events; on DynamoDB a stream's events share the key) or
  // saga type (sagas; on DynamoDB the sort key).
  bool claim(const LegacyRecord& record, const RekeyMove& move, std::string_view beside) {
    if (!new_keys_.insert(move.new_key + '\n' + std::string(beside)).second) {
      refuse(record, "re-keys to '" + move.new_key +
                         "', as another legacy record does; compare the two and remove one");
      return false;
    }
    return true;
  }

  // False (and refused) when the record's own tenant field names another tenant: an
  // earlier release that filtered by a tenant field knew the record's tenant, and
  // re-keying it under another would hand it to the wrong one.
  bool own_tenant_agrees(const LegacyRecord& record) {
    if (record.tenant_field && *record.tenant_field != tenant_.value()) {
      refuse(record, "names the tenant '" + *record.tenant_field +
                         "' in its own field, not --tenant '" + tenant_.value() +
                         "'; re-key it under its own tenant first, alone: --tenant '" +
                         *record.tenant_field + "' --only-named");
      return false;
    }
    return true;
  }

  void plan_event(const LegacyRecord& record, std::map<std::string, StreamPlan>& streams) {
    if (!selected(record) || !own_tenant_agrees(record)) {
      return;
    }
    const keys::LegacyStreamSplit split = keys::split_legacy_stream_key(
        target_.key_shape(), record.key, record.fields, options_.aggregate_types);
    if (!split.split()) {
      refuse(record, split.refusal);
      return;
    }
    if (split.version && *split.version != record.version) {
      refuse(record, "names version " + std::to_string(*split.version) +
                         " but its version field holds " + std::to_string(record.version));
      return;
    }
    try {
      const StreamId stream(tenant_, split.aggregate_type, split.aggregate_id);
      RekeyMove move = target_.event_move(record, stream);
      if (!claim(record, move, std::to_string(record.version))) {
        return;
      }
      const std::string id = split.aggregate_type + '\0' + split.aggregate_id;
      auto it = streams.find(id);
      if (it == streams.end()) {
        it = streams.emplace(id, StreamPlan{stream, {}}).first;
      }
      it->second.moves.push_back(std::move(move));
    } catch (const InvalidInputError& error) {
      refuse(record, std::string("cannot be re-keyed: ") + error.what());
    }
  }

  void plan_saga(const LegacyRecord& record) {
    if (!selected(record) || !own_tenant_agrees(record)) {
      return;
    }
    const keys::LegacySagaSplit split = keys::split_legacy_saga_key(
        target_.key_shape(), record.key, record.sort_key, record.fields, options_.saga_types);
    if (!split.split()) {
      refuse(record, split.refusal);
      return;
    }
    try {
      const SagaId saga(tenant_, split.saga_type, split.saga_id);
      RekeyMove move = target_.saga_move(record, saga);
      if (claim(record, move, split.saga_type)) {
        plan_.sagas.push_back(SagaPlan{saga, std::move(move)});
      }
    } catch (const InvalidInputError& error) {
      refuse(record, std::string("cannot be re-keyed: ") + error.what());
    }
  }

  const TenantRekeyTarget& target_;
  const TenantRekeyOptions& options_;
  TenantId tenant_;
  std::set<std::string> new_keys_;
  std::map<std::string, std::size_t> refused_;  // where and stream -> its refusal
  Plan plan_;
};

// "1 legacy stream", "3 legacy sagas".
std::string counted(std::size_t n, std::string_view what) {
  return std::to_string(n) + " legacy " + std::string(what) + (n == 1 ? "" : "s");
}

[[noreturn]] void refuse_plan(const std::vector<Refusal>& refusals) {
  const auto streams = static_cast<std::size_t>(
      std::count_if(refusals.begin(), refusals.end(),
                    [](const Refusal& refusal) { return refusal.kind == RekeyKind::kEvent; }));
  const std::size_t sagas = refusals.size() - streams;
  std::string message =
      (streams > 0 && sagas > 0
           ? counted(streams, "stream") + " and " + counted(sagas, "saga")
           : (streams > 0 ? counted(streams, "stream") : counted(sagas, "saga"))) +
      " cannot be re-keyed without a guess, so nothing was written:";
  for (std::size_t i = 0; i < refusals.size() && i < kListedRefusals; ++i) {
    message += "\n  " + refusals[i].text;
    if (refusals[i].records > 1) {
      message += " (its stream's " + std::to_string(refusals[i].records) +
                 " events are refused with it; the first is named)";
    }
  }
  if (refusals.size() > kListedRefusals) {
    message += "\n  ... and " + std::to_string(refusals.size() - kListedRefusals) + " more";
  }
  throw InvalidInputError(message);
}

// Moves batches of moves, each one atomic write, counting into the report.
class Mover {
 public:
  Mover(const TenantRekeyTarget& target, TenantRekeyReport& report)
      : target_(target), report_(report) {}

  // Moves `moves` in order, in batches within the target's limits, calling
  // `after_batch` with how many are moved after each batch but the last.
  void move_all(std::span<const RekeyMove> moves,
                const std::function<void(std::uint64_t moved)>& after_batch = {}) {
    std::vector<const RekeyMove*> batch;
    std::size_t weight = 0;
    std::uint64_t moved = 0;
    for (const RekeyMove& move : moves) {
      if (!batch.empty() && (batch.size() == target_.moves_per_write() ||
                             weight + move.weight > target_.weight_per_write())) {
        move_batch(batch);
        moved += batch.size();
        if (after_batch) {
          after_batch(moved);
        }
        batch.clear();
        weight = 0;
      }
      batch.push_back(&move);
      weight += move.weight;
    }
    if (!batch.empty()) {
      move_batch(batch);
    }
  }

 private:
  void count(const std::vector<const RekeyMove*>& moved, bool already) {
    for (const RekeyMove* move : moved) {
      const bool event = move->record->kind == RekeyKind::kEvent;
      (event ? (already ? report_.events_already : report_.events)
             : (already ? report_.sagas_already : report_.sagas)) += 1;
    }
  }

  void move_batch(const std::vector<const RekeyMove*>& batch) {
    if (target_.commit(batch, {})) {
      count(batch, false);
      return;
    }
    // A condition failed: some new key is taken (an earlier run that moved it, or a
    // record written since), or an old record changed. Read each new key.
    std::vector<const RekeyMove*> moves;
    std::vector<const RekeyMove*> deletes;
    for (const RekeyMove* move : batch) {
      const std::optional<nlohmann::json> held = target_.read_new(*move);
      if (!held) {
        moves.push_back(move);
      } else if (*held == move->new_document) {
        deletes.push_back(move);
      } else {
        const std::string where = target_.where(move->record->kind);
        throw LegacyDataError(
            where, move->record->key,
            where + ": the legacy record '" + move->record->key + "' re-keys to '" + move->new_key +
                "', which holds a different record already (written since the writers "
                "stopped, or by another tool). Nothing more was written: compare the two, "
                "keep one, and run again");
      }
    }
    if (!target_.commit(moves, deletes)) {
      throw InfrastructureError(
          target_.where(batch.front()->record->kind) + ": a legacy record beginning with '" +
          batch.front()->record->key +
          "' changed while it was being re-keyed; no legacy record of its batch was "
          "deleted (where creates and deletes are separate writes, its new records may be "
          "written, and the marker keeps every store refusing). Stop every writer and run "
          "again");
    }
    count(moves, false);
    count(deletes, true);
  }

  const TenantRekeyTarget& target_;
  TenantRekeyReport& report_;
};

[[noreturn]] void verification_failed(const std::string& what, const std::string& found) {
  throw InfrastructureError("the re-key moved " + what + ", but loading it under the new key " +
                            found +
                            ". Its marker stays, so the stores keep refusing: stop every "
                            "writer, compare with `docket migrate scan` and the export, and "
                            "run the re-key again");
}

// The stream loads with versions 0..n; when this run exported events of it, its last
// version is the export's and every exported event id is at its version.
void verify_stream(EventStore& store, const StreamId& stream, const RekeyedStream* exported) {
  const std::vector<RecordedEvent> loaded = store.load(stream);
  const std::string what = "stream " + stream.aggregate_type() + " / " + stream.aggregate_id();
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    if (loaded[i].version != static_cast<std::int64_t>(i)) {
      verification_failed(what, "found version " + std::to_string(loaded[i].version) +
                                    " where version " + std::to_string(i) + " belongs");
    }
  }
  if (exported == nullptr) {
    if (loaded.empty()) {
      verification_failed(what, "found no events");
    }
    return;
  }
  const std::int64_t last = exported->events.back().version;
  if (loaded.empty() || loaded.back().version != last) {
    verification_failed(what, "found " + std::to_string(loaded.size()) +
                                  " events, not the export's last version " + std::to_string(last));
  }
  for (const RekeyedEvent& event : exported->events) {
    const RecordedEvent& found = loaded[static_cast<std::size_t>(event.version)];
    if (found.event_id.to_string() != event.event_id) {
      verification_failed(what, "found event " + found.event_id.to_string() + " at version " +
                                    std::to_string(event.version) + ", not the exported " +
                                    event.event_id);
    }
  }
}

// The saga loads; when this run exported it, with the exported version and state.
void verify_saga(SagaStore& store, const SagaId& saga, const RekeyedSaga* exported) {
  const std::optional<SagaRecord> loaded = store.load(saga);
  const std::string what = "saga " + saga.saga_type() + " / " + saga.saga_id();
  if (!loaded) {
    verification_failed(what, "found nothing");
  }
  if (exported != nullptr &&
      (loaded->version != exported->version || loaded->state != exported->state)) {
    verification_failed(what, "found version " + std::to_string(loaded->version) +
                                  (loaded->state == exported->state ? "" : " and another state") +
                                  ", not the exported version " +
                                  std::to_string(exported->version));
  }
}

// Verifies every stream and saga keyed under `tenant` (the store's, whichever run
// moved them) through the target's stores, counting into `report`.
void verify(const TenantRekeyTarget& target, const TenantId& tenant, TenantRekeyReport& report) {
  std::map<std::pair<std::string, std::string>, const RekeyedStream*> exported_streams;
  for (const RekeyedStream& stream : report.moved_streams) {
    exported_streams[{stream.aggregate_type, stream.aggregate_id}] = &stream;
  }
  std::vector<StreamId> streams = target.tenant_streams(tenant);
  for (const RekeyedStream& stream : report.moved_streams) {
    const StreamId id(tenant, stream.aggregate_type, stream.aggregate_id);
    if (std::find(streams.begin(), streams.end(), id) == streams.end()) {
      streams.push_back(id);  // moved but not listed: its load says what is there
    }
  }
  if (!streams.empty()) {
    const std::unique_ptr<EventStore> events = target.verifying_event_store();
    for (const StreamId& stream : streams) {
      const auto exported = exported_streams.find({stream.aggregate_type(), stream.aggregate_id()});
      verify_stream(*events, stream,
                    exported == exported_streams.end() ? nullptr : exported->second);
      ++report.streams_verified;
    }
  }
  std::map<std::pair<std::string, std::string>, const RekeyedSaga*> exported_sagas;
  for (const RekeyedSaga& saga : report.moved_sagas) {
    exported_sagas[{saga.saga_type, saga.saga_id}] = &saga;
  }
  std::vector<SagaId> sagas = target.tenant_sagas(tenant);
  for (const RekeyedSaga& saga : report.moved_sagas) {
    const SagaId id(tenant, saga.saga_type, saga.saga_id);
    if (std::find(sagas.begin(), sagas.end(), id) == sagas.end()) {
      sagas.push_back(id);
    }
  }
  if (!sagas.empty()) {
    const std::unique_ptr<SagaStore> store = target.verifying_saga_store();
    for (const SagaId& saga : sagas) {
      const auto exported = exported_sagas.find({saga.saga_type(), saga.saga_id()});
      verify_saga(*store, saga, exported == exported_sagas.end() ? nullptr : exported->second);
      ++report.sagas_verified;
    }
  }
}

std::string describe_stream(const StreamPlan& stream) {
  return "stream " + stream.stream.aggregate_type() + " / " + stream.stream.aggregate_id() + " (" +
         std::to_string(stream.moves.size()) + " event" + (stream.moves.size() == 1 ? "" : "s") +
         ")";
}

std::string describe_saga(const SagaPlan& saga) {
  return "saga " + saga.saga.saga_type() + " / " + saga.saga.saga_id() + " (version " +
         std::to_string(saga.move.record->version) + ")";
}

}  // namespace

TenantRekeyReport run_tenant_rekey(const TenantRekeyTarget& target,
                                   const TenantRekeyOptions& options) {
  const TenantId tenant = TenantId::from_stored(options.tenant);
  if (tenant.value() != kDefaultTenant && !tenant.is_untenanted() && !options.only_named &&
      !options.new_tenant_confirmed && !target.holds_tenant(tenant)) {
    refuse_unknown_tenant(tenant);
  }
  const std::vector<LegacyRecord> events = target.legacy_records(RekeyKind::kEvent);
  const std::vector<LegacyRecord> sagas = target.legacy_records(RekeyKind::kSaga);
  const Plan plan = Planner(target, options, tenant).plan(events, sagas);
  if (!plan.refusals.empty()) {
    refuse_plan(plan.refusals);
  }

  TenantRekeyReport report;
  report.streams = plan.streams.size();
  const std::uint64_t total = plan.streams.size() + plan.sagas.size();
  std::uint64_t done = 0;
  // The marker before the first write; a marker found is an earlier run's, resumed
  // here when it is this tenant's.
  bool marked = false;
  if (!options.dry_run) {
    const std::optional<RekeyMarker> found = target.read_marker();
    if (found && found->tenant != tenant.value()) {
      throw other_rekey_in_progress_error(tenant.value(), target.marker_where(), *found);
    }
    marked = found.has_value();
    if (!marked && total > 0) {
      target.write_marker(marker_of_this_process(tenant.value()));
      marked = true;
    }
  }
  Mover mover(target, report);
  for (const StreamPlan& stream : plan.streams) {
    if (options.dry_run) {
      report.events += stream.moves.size();
    } else if (options.on_stream_progress) {
      const std::string what =
          "stream " + stream.stream.aggregate_type() + " / " + stream.stream.aggregate_id();
      mover.move_all(stream.moves, [&](std::uint64_t moved) {
        options.on_stream_progress(what, moved, stream.moves.size());
      });
    } else {
      mover.move_all(stream.moves);
    }
    RekeyedStream moved{.aggregate_type = stream.stream.aggregate_type(),
                        .aggregate_id = stream.stream.aggregate_id(),
                        .events = {}};
    for (const RekeyMove& move : stream.moves) {
      moved.events.push_back({.version = move.record->version, .event_id = move.record->event_id});
    }
    report.moved_streams.push_back(std::move(moved));
    if (options.on_progress) {
      options.on_progress(describe_stream(stream), ++done, total);
    }
  }
  for (const SagaPlan& saga : plan.sagas) {
    if (options.dry_run) {
      ++report.sagas;
    } else {
      mover.move_all(std::span<const RekeyMove>(&saga.move, 1));
    }
    report.moved_sagas.push_back({.saga_type = saga.saga.saga_type(),
                                  .saga_id = saga.saga.saga_id(),
                                  .version = saga.move.record->version,
                                  .state = saga.move.record->state});
    if (options.on_progress) {
      options.on_progress(describe_saga(saga), ++done, total);
    }
  }
  if (marked) {
    verify(target, tenant, report);
    target.remove_marker();
  }
  return report;
}

}  // namespace docket::kit
