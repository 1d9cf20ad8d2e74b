#include "providers/kit/tenant_rekey_procedure.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"

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

struct Plan {
  std::vector<StreamPlan> streams;  // ordered by aggregate type, then id
  std::vector<SagaPlan> sagas;      // ordered by new key
  std::vector<std::string> refusals;
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
  void refuse(const LegacyRecord& record, const std::string& reason) {
    plan_.refusals.push_back(target_.where(record.kind) + ": '" + record.key + "' " + reason);
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
                         "'; re-key it under its own tenant, separately");
      return false;
    }
    return true;
  }

  void plan_event(const LegacyRecord& record, std::map<std::string, StreamPlan>& streams) {
    if (!own_tenant_agrees(record)) {
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
    if (!own_tenant_agrees(record)) {
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
  Plan plan_;
};

[[noreturn]] void refuse_plan(const std::vector<std::string>& refusals) {
  std::string message = std::to_string(refusals.size()) + " legacy record" +
                        (refusals.size() == 1 ? "" : "s") +
                        " cannot be re-keyed without a guess, so nothing was written:";
  for (std::size_t i = 0; i < refusals.size() && i < kListedRefusals; ++i) {
    message += "\n  " + refusals[i];
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

  // Moves `moves` in order, in batches within the target's limits.
  void move_all(std::span<const RekeyMove> moves) {
    std::vector<const RekeyMove*> batch;
    std::size_t weight = 0;
    for (const RekeyMove& move : moves) {
      if (!batch.empty() && (batch.size() == target_.moves_per_write() ||
                             weight + move.weight > target_.weight_per_write())) {
        move_batch(batch);
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
          "' changed while it was being re-keyed; nothing of its batch was written. Stop "
          "every writer and run again");
    }
    count(moves, false);
    count(deletes, true);
  }

  const TenantRekeyTarget& target_;
  TenantRekeyReport& report_;
};

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
  if (tenant.value() != kDefaultTenant && !tenant.is_untenanted() &&
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
  Mover mover(target, report);
  for (const StreamPlan& stream : plan.streams) {
    if (options.dry_run) {
      report.events += stream.moves.size();
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
  return report;
}

}  // namespace docket::kit
