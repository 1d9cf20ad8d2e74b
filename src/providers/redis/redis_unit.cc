// The Redis unit of work and its commit script (redis_unit.h).
#include "providers/redis/redis_unit.h"

#include <algorithm>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_limits.h"
#include "providers/redis/redis_saga_fields.h"

namespace docket::redis::detail {
namespace {

std::string_view op_name(QueuedOp op) noexcept {
  switch (op) {
    case QueuedOp::kSet:
      return "set";
    case QueuedOp::kInsert:
      return "insert";
    case QueuedOp::kRemove:
      return "del";
    case QueuedOp::kHset:
      return "hset";
    case QueuedOp::kSadd:
      return "sadd";
    case QueuedOp::kRpush:
      return "rpush";
  }
  return "set";
}

std::string_view command_of(QueuedOp op) noexcept {
  switch (op) {
    case QueuedOp::kSet:
      return "SET";
    case QueuedOp::kInsert:
      return "insert (SET where no key exists)";
    case QueuedOp::kRemove:
      return "DEL";
    case QueuedOp::kHset:
      return "HSET";
    case QueuedOp::kSadd:
      return "SADD";
    case QueuedOp::kRpush:
      return "RPUSH";
  }
  return "SET";
}

}  // namespace

Unit::Unit(const UnitContext& context)
    : context_(context),
      transaction_(TransactionAccess::transaction_on(*this)),
      writes_(kit::CommitLimits{
          .store_name = "the Redis unit of work", .max_writes = 0, .max_bytes = kMaxCommitBytes}) {}

void Unit::stage_dedup(std::string key, std::string member, const InboxRecord& record) {
  const long long processed_at = kit::to_micros(context_.clock.now());
  DedupWrite write{.key = std::move(key),
                   .member = std::move(member),
                   .fields = {},
                   .processed_at = processed_at};
  const auto field = [&](std::string_view name, std::string value) {
    write.fields.emplace_back(name);
    write.fields.push_back(std::move(value));
  };
  field("tenant", record.key.tenant);
  field("consumer_id", record.key.consumer_id);
  field("message_id", record.key.message_id);
  field("event_type", record.event_type);
  field("occurred_at", std::to_string(kit::to_micros(record.occurred_at)));
  field("processed_at", std::to_string(processed_at));
  if (record.source) {
    field("source", *record.source);
  }
  if (record.causation_id) {
    field("causation_id", *record.causation_id);
  }
  if (record.correlation_id) {
    field("correlation_id", *record.correlation_id);
  }
  std::size_t bytes = write.key.size() + write.member.size();
  for (const std::string& f : write.fields) {
    bytes += f.size();
  }
  writes_.add(std::move(write), 1, bytes);
}

void Unit::stage_outbox(OutboxWrite write) {
  const auto& staged = writes_.list<OutboxWrite>();
  if (std::any_of(staged.begin(), staged.end(),
                  [&](const OutboxWrite& w) { return w.key == write.key; })) {
    throw UniqueViolationError(write.key, "the outbox message '" + write.id +
                                              "' is staged in this unit of work already: "
                                              "give each message an id of its own");
  }
  std::size_t bytes = write.key.size() + write.id.size() + write.order_key.size();
  for (const std::string& f : write.fields) {
    check_size("value", f);
    bytes += f.size();
  }
  writes_.add(std::move(write), 1, bytes);
}

void Unit::stage_event(EventWrite write) {
  std::size_t bytes = write.stream_key.size() + write.tenant_feed.size();
  for (const std::string& f : write.fields) {
    check_size("value", f);
    bytes += f.size();
  }
  writes_.add(std::move(write), 1, bytes);
}

void Unit::stage_saga(UnitSagas::Save save) {
  check_size("saga state", save.record.state);
  const std::size_t bytes = save.write.key.size() + save.write.member.size() +
                            save.record.state.size() + save.saga.saga_id().size();
  UnitSagas::stage(writes_, std::move(save), bytes);
}

bool Unit::holds(std::string_view key) const noexcept {
  const auto& staged = writes_.list<DedupWrite>();
  return std::any_of(staged.begin(), staged.end(),
                     [&](const DedupWrite& write) { return write.key == key; });
}

void Unit::queue(QueuedOp op, std::string_view key, std::string_view field,
                 std::string_view value) {
  check_size("key", key);
  check_size("value", value);
  check_size("field", field);
  QueuedWrite write{.op = op, .key = std::string(key), .args = {}};
  if (op == QueuedOp::kHset) {
    write.args.emplace_back(field);
  }
  if (op != QueuedOp::kRemove) {
    write.args.emplace_back(value);
  }
  writes_.add(std::move(write), 1, key.size() + field.size() + value.size());
}

void Unit::commit() {
  if (committed_) {
    throw InfrastructureError("the Redis unit of work was committed already");
  }
  committed_ = true;
  const auto& dedups = writes_.list<DedupWrite>();
  const auto& queued = writes_.list<QueuedWrite>();
  const auto& outs = writes_.list<OutboxWrite>();
  const auto& events = writes_.list<EventWrite>();
  const std::vector<const UnitSagas::Save*> saves = UnitSagas::latest_saves(staged_sagas());
  if (dedups.empty() && queued.empty() && outs.empty() && events.empty() && saves.empty()) {
    return;
  }
  const RedisUrl& url = context_.pool.url();
  std::vector<std::string> args;
  args.push_back(context_.index_key);
  args.push_back(std::to_string(dedups.size()));
  args.push_back(std::to_string(queued.size()));
  args.push_back(std::to_string(outs.size()));
  args.push_back(std::to_string(events.size()));
  args.push_back(url.key(kOutboxSequence));
  args.push_back(url.key(kOutboxFeed));
  args.push_back(url.key(kOutboxDue));
  args.push_back(url.key(kEventPosition));
  args.push_back(url.key(kEventFeed));
  args.push_back(url.key(kEventRecords));
  args.push_back(std::to_string(saves.size()));
  args.push_back(url.key(kSagaKeys));
  args.push_back(url.key(kSagaCompleted));
  args.push_back(url.key(kOutboxStaged));
  args.push_back(url.key(kEventsAppended));
  for (const DedupWrite& d : dedups) {
    args.push_back(d.key);
    args.push_back(d.member);
    args.push_back(std::to_string(d.processed_at));
    args.push_back(std::to_string(d.fields.size() / 2));
    args.insert(args.end(), d.fields.begin(), d.fields.end());
  }
  for (const QueuedWrite& w : queued) {
    args.emplace_back(op_name(w.op));
    args.push_back(w.key);
    args.push_back(std::to_string(w.args.size()));
    args.insert(args.end(), w.args.begin(), w.args.end());
  }
  for (const OutboxWrite& o : outs) {
    args.push_back(o.key);
    args.push_back(o.id);
    args.push_back(o.order_key);
    args.push_back(std::to_string(o.next_attempt_at));
    args.push_back(std::to_string(o.fields.size() / 2));
    args.insert(args.end(), o.fields.begin(), o.fields.end());
  }
  for (const EventWrite& e : events) {
    args.push_back(e.stream_key);
    args.push_back(e.tenant_feed);
    args.push_back(e.version ? std::to_string(*e.version) : std::string());
    args.push_back(std::to_string(e.fields.size() / 2));
    args.insert(args.end(), e.fields.begin(), e.fields.end());
  }
  for (const UnitSagas::Save* save : saves) {
    const std::vector<std::string> fields = saga_fields(save->saga, save->record);
    args.push_back(save->write.key);
    args.push_back(save->write.member);
    args.push_back(std::to_string(sagas_.first_read(save->saga).base));
    args.push_back(save->record.completed_at
                       ? std::to_string(kit::to_micros(*save->record.completed_at))
                       : std::string());
    args.push_back(std::to_string(fields.size() / 2));
    args.insert(args.end(), fields.begin(), fields.end());
  }
  const Reply reply = context_.commit_script.run(context_.pool, std::move(args), Replay::kUnsafe);
  const long long outcome = reply.integer_at(0);
  if (outcome == 0) {
    for (std::size_t e = 0; e < events.size(); ++e) {
      placed_.push_back(PlacedEvent{.version = reply.integer_at(1 + 2 * e),
                                    .position = reply.integer_at(2 + 2 * e)});
    }
    return;
  }
  // The refused record's or write's position, from 1 (0 for the index itself).
  const auto at = static_cast<std::size_t>(reply.integer_at(1)) - 1;
  if (outcome == 1 && at < dedups.size()) {
    throw DuplicateDeliveryError(dedups[at].key, "the Redis inbox's dedup record '" +
                                                     dedups[at].key +
                                                     "' was committed already (a concurrent "
                                                     "delivery); nothing of this unit was written");
  }
  if (outcome == 2 && at < queued.size()) {
    throw UniqueViolationError(queued[at].key, "the key '" + queued[at].key +
                                                   "' exists, so the handler's insert into it "
                                                   "failed; nothing of this unit was written");
  }
  if (outcome == 3 && at < queued.size()) {
    throw InvalidInputError("the key '" + queued[at].key + "' holds a " +
                            reply.string_at(2).value_or("value") + ", which " +
                            std::string(command_of(queued[at].op)) +
                            " cannot write (WRONGTYPE); nothing of this unit was written: "
                            "use another key or remove it first");
  }
  if (outcome == 4 && at < dedups.size()) {
    throw InfrastructureError("the Redis inbox's dedup record key '" + dedups[at].key +
                              "' holds a " + reply.string_at(2).value_or("value") +
                              ", which docket did not write (WRONGTYPE in docket's prefix '" +
                              context_.pool.url().prefix +
                              "'); nothing of this unit was written: remove the key, or give "
                              "docket a prefix of its own (?prefix=)");
  }
  if (outcome == 6 && at < outs.size()) {
    throw UniqueViolationError(outs[at].key, "the outbox message '" + outs[at].id +
                                                 "' exists already (its id was staged before); "
                                                 "nothing of this unit was written");
  }
  if (outcome == 7) {
    throw InfrastructureError("the key '" + reply.string_at(3).value_or("?") + "' holds a " +
                              reply.string_at(2).value_or("value") +
                              ", which docket did not write (WRONGTYPE in docket's prefix '" +
                              url.prefix +
                              "'); nothing of this unit was written: remove the key, or give "
                              "docket a prefix of its own (?prefix=)");
  }
  if (outcome == 8 && at < events.size()) {
    const EventWrite& e = events[at];
    const kit::StagedEvent staged = e.event.value_or(kit::StagedEvent{
        .stream_key = e.stream_key, .stream = e.stream_key, .version = e.version.value_or(0)});
    throw kit::event_conflict("the Redis event store", staged,
                              streams_.first_read(staged.stream_key));
  }
  if (outcome == 9 && at < saves.size()) {
    throw kit::saga_conflict("the Redis saga store", saves[at]->saga,
                             sagas_.first_read(saves[at]->saga).base, reply.integer_at(2));
  }
  if (outcome == 5) {
    throw InfrastructureError("the Redis inbox's processed index '" + context_.index_key +
                              "' holds a " + reply.string_at(2).value_or("value") +
                              ", which docket did not write (WRONGTYPE in docket's prefix); "
                              "nothing of this unit was written: remove the key, or give "
                              "docket a prefix of its own (?prefix=)");
  }
  throw InfrastructureError("Redis at " + context_.pool.url().server() +
                            " answered the commit script with an outcome docket does "
                            "not know (" +
                            std::to_string(outcome) + ")");
}

}  // namespace docket::redis::detail
