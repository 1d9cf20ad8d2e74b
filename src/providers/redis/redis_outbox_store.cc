// The Redis OutboxStore (redis_outbox_store.h).
#include "providers/redis/redis_outbox_store.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/redis/transaction.h"
#include "providers/kit/producer_unit_of_work.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_joined_unit.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_limits.h"
#include "providers/redis/redis_listener.h"
#include "providers/redis/redis_outbox_row.h"
#include "providers/redis/redis_outbox_script.h"
#include "providers/redis/redis_unit.h"

namespace docket::redis::detail {
namespace {

// The most due ids one claim moves to the ready set (or 4 x its limit, when more): a
// backlog is taken in bounded script runs, the earliest due first.
constexpr std::size_t kOutboxMostMoved = 1000;

std::string outbox_micros(Timestamp t) {
  return std::to_string(kit::to_micros(t));
}

class RedisOutboxStore final : public OutboxStore {
 public:
  RedisOutboxStore(std::string_view url, const Clock& clock)
      : pool_(parse_url(url)),
        commit_script_("the commit script", commit_script_source()),
        script_("the outbox script", outbox_script_source()),
        context_{pool_, commit_script_, pool_.url().key(kDedupIndex), clock},
        name_(pool_.url().describe_store("outbox")) {}

  std::string_view provider_name() const noexcept override { return "redis"; }
  StoreCapabilities capabilities() const noexcept override {
    return {.joins_handler_writes = true,
            .interactive_transactions = false,
            .max_writes_per_commit = 0,
            .max_bytes_per_commit = kMaxCommitBytes,
            .max_bytes_per_record = kMaxBulkBytes,
            .feed = FeedKind::kGlobalPositions,
            .server_side_expiry = false,
            .shared_between_processes = true,
            .concurrent_writers = false};
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<redis::Transaction>();
  }
  // Redis has no schema: keys are made by the writes that need them.
  void migrate() override {}
  std::unique_ptr<UnitOfWork> begin() override {
    return std::make_unique<kit::ProducerUnitOfWork<Unit>>(context_);
  }

  // The commit script publishes to the staged channel whenever a commit staged messages
  // (whichever store's unit it was, in whichever process): one listening connection per
  // process and server hears it (redis_listener.h).
  std::shared_ptr<WakeSignal> staged_signal() override {
    const std::lock_guard lock(listener_mutex_);
    if (!listener_) {
      listener_ = shared_listener(pool_.url(), pool_.url().key(kOutboxStaged));
    }
    return listener_->signal();
  }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    Unit& unit = joined_unit(tx, pool_.url(), name_, "stage a message");
    const RedisUrl& url = pool_.url();
    std::string order_key =
        record.ordering_key ? outbox_order_key(url, record.tenant, *record.ordering_key) : "";
    std::vector<std::string> fields = staged_outbox_fields(record, order_key);
    unit.stage_outbox(OutboxWrite{.key = outbox_message_key(url, record.id),
                                  .id = record.id,
                                  .order_key = std::move(order_key),
                                  .next_attempt_at = kit::to_micros(record.next_attempt_at),
                                  .fields = std::move(fields)});
  }

  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    if (limit == 0) {
      return {};
    }
    return records(
        run("claim",
            {std::string(token), outbox_micros(now), outbox_micros(lease_until),
             std::to_string(limit), std::to_string(std::max(kOutboxMostMoved, 4 * limit))},
            Replay::kUnsafe));
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    return run("complete", {std::string(id), std::string(token), outbox_micros(now)},
               Replay::kUnsafe)
               .integer() == 1;
  }

  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    if (ids.empty()) {
      return 0;
    }
    // One script run for the batch, not one a message: a run's set-up (EVALSHA, the
    // index type checks) is most of a completion's cost on the server.
    std::vector<std::string> arguments{std::string(token), outbox_micros(now)};
    arguments.insert(arguments.end(), ids.begin(), ids.end());
    return static_cast<std::size_t>(
        run("complete_all", std::move(arguments), Replay::kUnsafe).integer());
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    check_size("error", attempt.error);
    return run("fail",
               {std::string(id), std::string(token), attempt.park ? "1" : "0",
                outbox_micros(attempt.next_attempt_at), attempt.error},
               Replay::kUnsafe)
               .integer() == 1;
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    return range("parked", after_sequence, limit);
  }

  bool replay(std::string_view id, Timestamp now) override { return change("replay", id, now); }
  bool skip(std::string_view id, Timestamp now) override { return change("skip", id, now); }
  bool cancel(std::string_view id, Timestamp now) override { return change("cancel", id, now); }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    return purge("purge_parked", cutoff, limit);
  }
  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    return purge("purge_done", cutoff, limit);
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    return range("feed", after_sequence, limit);
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    if (!Uuid::parse(id)) {
      return std::nullopt;  // no message has it: ids are UUIDs
    }
    const std::vector<std::string> fields =
        pool_.run({"HGETALL", outbox_message_key(pool_.url(), id)}, Replay::kSafe).strings();
    if (fields.empty()) {
      return std::nullopt;
    }
    return outbox_row_of(fields, name_).record;
  }

 private:
  std::vector<std::string> args(std::string_view op, std::vector<std::string> rest) const {
    const RedisUrl& url = pool_.url();
    std::vector<std::string> all{
        std::string(op),      url.key(kOutboxMessages), url.key(kOutboxDue), url.key(kOutboxReady),
        url.key(kOutboxFeed), url.key(kOutboxParked),   url.key(kOutboxDone)};
    all.insert(all.end(), std::make_move_iterator(rest.begin()),
               std::make_move_iterator(rest.end()));
    return all;
  }

  Reply run(std::string_view op, std::vector<std::string> rest, Replay replay) {
    return script_.run(pool_, args(op, std::move(rest)), replay);
  }

  bool change(std::string_view op, std::string_view id, Timestamp now) {
    return run(op, {std::string(id), outbox_micros(now)}, Replay::kUnsafe).integer() == 1;
  }

  std::size_t purge(std::string_view op, Timestamp cutoff, std::size_t limit) {
    if (limit == 0) {
      return 0;
    }
    return static_cast<std::size_t>(
        run(op, {outbox_micros(cutoff), std::to_string(limit)}, Replay::kUnsafe).integer());
  }

  std::vector<OutboxRecord> range(std::string_view set, std::int64_t after, std::size_t limit) {
    if (limit == 0) {
      return {};
    }
    return records(run("range", {std::string(set), std::to_string(after), std::to_string(limit)},
                       Replay::kSafe));
  }

  std::vector<OutboxRecord> records(const Reply& reply) const {
    std::vector<OutboxRecord> result;
    for (std::size_t i = 0; i < reply.size(); ++i) {
      result.push_back(outbox_row_of(reply.strings_at(i), name_).record);
    }
    return result;
  }

  Pool pool_;
  Script commit_script_;
  Script script_;
  UnitContext context_;
  std::string name_;  // "the Redis outbox at 127.0.0.1:6379/0 (prefix 'docket:')"
  std::mutex listener_mutex_;
  std::shared_ptr<kit::NotificationListener> listener_;  // opened by the first staged_signal()
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisOutboxStore>(url, clock);
}

}  // namespace docket::redis::detail
