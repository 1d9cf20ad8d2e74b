// The Redis unit of work and its commit script (redis_unit.h).
#include "providers/redis/redis_unit.h"

#include <algorithm>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_limits.h"

namespace docket::redis::detail {
namespace {

// ARGV: index key, dedup count, write count, then each dedup record (key, index member,
// processed_at, field count n, n field/value pairs) and each write (op, key, argument
// count n, n arguments). Phase 1 checks, phase 2 writes; see redis_unit.h.
constexpr std::string_view kCommitScript = R"lua(
local index = ARGV[1]
local nd, nw = tonumber(ARGV[2]), tonumber(ARGV[3])
local i = 4
local dedups, writes, seen, kinds = {}, {}, {}, {}
local index_type = redis.call('TYPE', index)['ok']
if index_type ~= 'zset' and index_type ~= 'none' then return {5, 0, index_type} end
for d = 1, nd do
  local key, nf = ARGV[i], tonumber(ARGV[i + 3])
  local record_type = redis.call('TYPE', key)['ok']
  if seen[key] or record_type == 'hash' then return {1, d} end
  if record_type ~= 'none' then return {4, d, record_type} end
  seen[key] = true
  dedups[d] = i
  i = i + 4 + 2 * nf
end
local wants = {hset = 'hash', sadd = 'set', rpush = 'list'}
for w = 1, nw do
  local op, key, na = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local kind = kinds[key]
  if kind == nil then kind = redis.call('TYPE', key)['ok'] end
  if op == 'insert' then
    if kind ~= 'none' then return {2, w} end
    kind = 'string'
  elseif op == 'set' then kind = 'string'
  elseif op == 'del' then kind = 'none'
  else
    local want = wants[op]
    if kind ~= 'none' and kind ~= want then return {3, w, kind} end
    kind = want
  end
  kinds[key] = kind
  writes[w] = i
  i = i + 3 + na
end
for w = 1, nw do
  local at = writes[w]
  local op, key = ARGV[at], ARGV[at + 1]
  if op == 'set' or op == 'insert' then redis.call('SET', key, ARGV[at + 3])
  elseif op == 'del' then redis.call('DEL', key)
  elseif op == 'hset' then redis.call('HSET', key, ARGV[at + 3], ARGV[at + 4])
  elseif op == 'sadd' then redis.call('SADD', key, ARGV[at + 3])
  else redis.call('RPUSH', key, ARGV[at + 3]) end
end
for d = 1, nd do
  local at = dedups[d]
  local nf = tonumber(ARGV[at + 3])
  redis.call('HSET', ARGV[at], unpack(ARGV, at + 4, at + 3 + 2 * nf))
  redis.call('ZADD', index, ARGV[at + 2], ARGV[at + 1])
end
return {0}
)lua";

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

std::string_view commit_script_source() noexcept {
  return kCommitScript;
}

Unit::Unit(const UnitContext& context)
    : context_(context),
      transaction_(TransactionAccess::transaction_on(*this)),
      writes_(kit::CommitLimits{
          .store_name = "the Redis inbox", .max_writes = 0, .max_bytes = kMaxCommitBytes}) {}

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
    throw InfrastructureError("the Redis inbox unit of work was committed already");
  }
  committed_ = true;
  const auto& dedups = writes_.list<DedupWrite>();
  const auto& queued = writes_.list<QueuedWrite>();
  if (dedups.empty() && queued.empty()) {
    return;
  }
  std::vector<std::string> args;
  args.push_back(context_.index_key);
  args.push_back(std::to_string(dedups.size()));
  args.push_back(std::to_string(queued.size()));
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
  const Reply reply = context_.commit_script.run(context_.pool, std::move(args), Replay::kUnsafe);
  const long long outcome = reply.integer_at(0);
  if (outcome == 0) {
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
  if (outcome == 5) {
    throw InfrastructureError("the Redis inbox's processed index '" + context_.index_key +
                              "' holds a " + reply.string_at(2).value_or("value") +
                              ", which docket did not write (WRONGTYPE in docket's prefix); "
                              "nothing of this unit was written: remove the key, or give "
                              "docket a prefix of its own (?prefix=)");
  }
  throw InfrastructureError("Redis at " + context_.pool.url().server() +
                            " answered the inbox commit script with an outcome docket does "
                            "not know (" +
                            std::to_string(outcome) + ")");
}

}  // namespace docket::redis::detail
