// `docket chaos`'s queue (tools/docket/chaos/chaos_queue.h) in a SQLite file of its
// own, through the provider's own connection: tables `copies` (one row a queued copy,
// with its visibility and delivery count) and `counters`, written in BEGIN IMMEDIATE
// transactions, so that any number of processes share the file (SQLite's locking,
// WAL, a busy timeout) and a process killed at any instruction leaves it whole.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "chaos_provider.h"
#include "providers/sqlite/sqlite_connection.h"
#include "providers/sqlite/sqlite_immediate_transaction.h"

namespace docket::sqlite {
namespace {

using tool::QueueCounters;
using tool::QueueDelivery;

constexpr std::chrono::milliseconds kBusyTimeout{30'000};

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS copies ("
    " tag INTEGER PRIMARY KEY AUTOINCREMENT,"
    " tenant TEXT NOT NULL, message_id TEXT NOT NULL, event_type TEXT NOT NULL,"
    " payload BLOB NOT NULL, occurred_at INTEGER NOT NULL, source TEXT,"
    " causation_id TEXT, correlation_id TEXT, traceparent TEXT NOT NULL,"
    " tracestate TEXT NOT NULL, visible_at INTEGER NOT NULL DEFAULT 0,"
    " deliveries INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "INSERT OR IGNORE INTO counters VALUES ('published', 0), ('deliveries', 0),"
    " ('redeliveries', 0), ('absorbed', 0);";

Value optional_value(const std::optional<std::string>& text) {
  return text ? Value(*text) : Value(nullptr);
}

std::optional<std::string> optional_text(const Value& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    return *text;
  }
  return std::nullopt;
}

class SqliteChaosQueue final : public tool::ChaosQueue {
 public:
  explicit SqliteChaosQueue(const std::string& path) : db_(path, kBusyTimeout) {
    detail::ImmediateTransaction tx(db_);
    db_.exec_script(kSchema);
    tx.commit();
  }

  void publish(const TransportMessage& message) override;
  std::optional<QueueDelivery> receive(Timestamp now,
                                       std::chrono::microseconds visibility) override;
  void ack(std::int64_t tag, bool absorbed) override;
  QueueCounters counters() override;

 private:
  // Adds one to `counter`, inside the caller's transaction.
  void bump(const char* counter) {
    db_.exec("UPDATE counters SET value = value + 1 WHERE name = ?1", {std::string(counter)});
  }

  detail::Connection db_;
};

void SqliteChaosQueue::publish(const TransportMessage& message) {
  const Envelope& e = message.envelope;
  detail::ImmediateTransaction tx(db_);
  db_.exec(
      "INSERT INTO copies (tenant, message_id, event_type, payload, occurred_at, source,"
      " causation_id, correlation_id, traceparent, tracestate)"
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
      {message.tenant, e.message_id, e.event_type, e.payload,
       static_cast<std::int64_t>(e.occurred_at.time_since_epoch().count()),
       optional_value(e.source), optional_value(e.causation_id), optional_value(e.correlation_id),
       e.traceparent, e.tracestate});
  bump("published");
  tx.commit();
}

std::optional<QueueDelivery> SqliteChaosQueue::receive(Timestamp now,
                                                       std::chrono::microseconds visibility) {
  const auto now_us = static_cast<std::int64_t>(now.time_since_epoch().count());
  detail::ImmediateTransaction tx(db_);
  const std::vector<Row> rows = db_.query(
      "SELECT tag, tenant, message_id, event_type, payload, occurred_at, source, causation_id,"
      " correlation_id, traceparent, tracestate, deliveries FROM copies"
      " WHERE visible_at <= ?1 ORDER BY tag LIMIT 1",
      {now_us});
  if (rows.empty()) {
    return std::nullopt;
  }
  const Row& row = rows.front();
  QueueDelivery delivery{.tag = std::get<std::int64_t>(row[0]), .message = {}};
  delivery.message.tenant = std::get<std::string>(row[1]);
  Envelope& e = delivery.message.envelope;
  e.message_id = std::get<std::string>(row[2]);
  e.event_type = std::get<std::string>(row[3]);
  e.payload = std::get<std::string>(row[4]);
  e.occurred_at = Timestamp(std::chrono::microseconds(std::get<std::int64_t>(row[5])));
  e.source = optional_text(row[6]);
  e.causation_id = optional_text(row[7]);
  e.correlation_id = optional_text(row[8]);
  e.traceparent = std::get<std::string>(row[9]);
  e.tracestate = std::get<std::string>(row[10]);
  db_.exec("UPDATE copies SET visible_at = ?1, deliveries = deliveries + 1 WHERE tag = ?2",
           {now_us + static_cast<std::int64_t>(visibility.count()), delivery.tag});
  bump("deliveries");
  if (std::get<std::int64_t>(row[11]) > 0) {
    bump("redeliveries");
  }
  tx.commit();
  return delivery;
}

void SqliteChaosQueue::ack(std::int64_t tag, bool absorbed) {
  detail::ImmediateTransaction tx(db_);
  // A copy acknowledged twice (its consumer died after the first ack's commit, before
  // it knew) is gone already; counting it once is enough.
  if (db_.exec("DELETE FROM copies WHERE tag = ?1", {tag}) > 0 && absorbed) {
    bump("absorbed");
  }
  tx.commit();
}

QueueCounters SqliteChaosQueue::counters() {
  QueueCounters counters;
  for (const Row& row : db_.query("SELECT name, value FROM counters")) {
    const std::string& name = std::get<std::string>(row[0]);
    const std::int64_t value = std::get<std::int64_t>(row[1]);
    if (name == "published") {
      counters.published = value;
    } else if (name == "deliveries") {
      counters.deliveries = value;
    } else if (name == "redeliveries") {
      counters.redeliveries = value;
    } else if (name == "absorbed") {
      counters.absorbed = value;
    }
  }
  counters.depth = std::get<std::int64_t>(db_.query("SELECT count(*) FROM copies").at(0).at(0));
  return counters;
}

std::unique_ptr<tool::ChaosQueue> open_queue(const std::string& path) {
  return std::make_unique<SqliteChaosQueue>(path);
}

}  // namespace

const tool::ChaosProvider& chaos_provider() {
  static const tool::ChaosProvider provider{.open_queue = &open_queue};
  return provider;
}

}  // namespace docket::sqlite
