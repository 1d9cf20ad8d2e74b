#include "providers/postgres/postgres_flight.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_round_trips.h"
#include "providers/postgres/postgres_unique_violation.h"

namespace docket::postgres::detail {
namespace {

// Leaves pipeline mode however the flight ends: on an early exit it ends the pipeline
// with a sync (if none was sent) and reads what the server still sends up to it, so the
// connection is usable again. A connection that cannot leave pipeline mode is not
// idle() and its pool discards it.
class PipelineMode {
 public:
  explicit PipelineMode(Connection& conn) : conn_(conn) {
    if (PQenterPipelineMode(conn.native()) != 1) {
      throw_failure(conn, Result(nullptr), "entering pipeline mode");
    }
  }
  PipelineMode(const PipelineMode&) = delete;
  PipelineMode& operator=(const PipelineMode&) = delete;
  ~PipelineMode() {
    PGconn* pg = conn_.native();
    if (!synced_ && (sync_sent_ || PQpipelineSync(pg) == 1)) {
      for (int unread = 0; unread < 4096 && conn_.healthy(); ++unread) {
        PGresult* result = PQgetResult(pg);
        const bool sync = result != nullptr && PQresultStatus(result) == PGRES_PIPELINE_SYNC;
        PQclear(result);
        if (sync) {
          break;
        }
      }
    }
    PQexitPipelineMode(pg);
  }

  void sync() {
    if (PQpipelineSync(conn_.native()) != 1) {
      throw_failure(conn_, Result(nullptr), "a pipeline sync");
    }
    sync_sent_ = true;
  }

  // The next result of the flight: one per statement sent, each followed by the
  // nullptr that ends that statement's results. A nullptr in its place is a connection
  // failure.
  Result next_result() {
    Result result(PQgetResult(conn_.native()));
    if (result.native() != nullptr) {
      PQclear(PQgetResult(conn_.native()));
    }
    return result;
  }

  void read_sync() {
    Result sync(PQgetResult(conn_.native()));
    synced_ = sync.native() != nullptr && sync.status() == PGRES_PIPELINE_SYNC;
    if (!synced_) {
      throw_failure(conn_, sync, "the end of a pipeline");
    }
  }

 private:
  Connection& conn_;
  bool sync_sent_ = false;
  bool synced_ = false;
};

// Queues one deferred statement; returns the preparation sent ahead of it, if any.
std::optional<PreparedStatement> send_deferred(Connection& conn, const DeferredStatement& item) {
  if (item.write) {
    return send_prepared(conn, item.name, item.sql, item.params.params());
  }
  if (PQsendQueryParams(conn.native(), item.sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr,
                        0) != 1) {
    throw_failure(conn, Result(nullptr), item.sql);
  }
  return std::nullopt;
}

struct Failure {
  Result result;
  const DeferredStatement* statement;
};

// One flight's outcome: the statements it took, the first that failed, and the result of
// the statement sent after them.
struct Flown {
  std::vector<DeferredStatement> items;
  std::optional<std::size_t> failed_at;
  std::optional<Failure> failed;
  std::optional<Result> statement;
};

// Sends the deferred statements, then `send` when given, in one round trip.
Flown fly_once(Connection& conn, const StatementSender* send) {
  count_round_trip();
  Flown flown;
  // Forgotten before anything is sent: once the flight starts, the server holds them.
  flown.items = conn.take_deferred();
  const std::vector<DeferredStatement>& items = flown.items;
  // The names whose preparation travels in this flight, remembered as they are sent so
  // that a later statement of the flight executes by name; forgotten if refused.
  std::vector<std::optional<std::string>> preparing(items.size());
  {
    PipelineMode pipeline(conn);
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (std::optional<PreparedStatement> prepared = send_deferred(conn, items[i])) {
        preparing[i] = prepared->name;
        conn.remember_prepared(std::move(*prepared));
      }
    }
    if (send != nullptr && (*send)(conn.native()) != 1) {
      throw_failure(conn, Result(nullptr), "the statement after the deferred ones");
    }
    pipeline.sync();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (preparing[i]) {
        Result prepared = pipeline.next_result();
        if (!prepared.ok()) {
          conn.forget_prepared(*preparing[i]);
          if (!flown.failed) {
            flown.failed.emplace(Failure{std::move(prepared), &items[i]});
            flown.failed_at = i;
          }
        }
      }
      Result result = pipeline.next_result();
      if (!result.ok() && !flown.failed) {
        flown.failed.emplace(Failure{std::move(result), &items[i]});
        flown.failed_at = i;
      }
    }
    if (send != nullptr) {
      flown.statement.emplace(pipeline.next_result());
    }
    pipeline.read_sync();
  }
  return flown;
}

// Flies until no deferred statement fails or a failure is not recovered (then thrown);
// returns the statement's result. Every recovery removes at least the failed statement
// for good, so the loop ends.
std::optional<Result> fly(Connection& conn, const StatementSender* send) {
  for (;;) {
    Flown flown = fly_once(conn, send);
    if (!flown.failed) {
      return std::move(flown.statement);
    }
    FlightRecovery* recovery = conn.recovery();
    if (recovery == nullptr ||
        !recovery->recover(conn, flown.items, *flown.failed_at, flown.failed->result)) {
      throw_mapped_failure(conn, flown.failed->result, flown.failed->statement->sql);
    }
    if (send == nullptr && conn.deferred().empty()) {
      return std::nullopt;
    }
  }
}

}  // namespace

Result send_after_deferred(Connection& conn, StatementSender send) {
  return std::move(*fly(conn, &send));
}

void flush_deferred(Connection& conn) {
  if (!conn.deferred().empty()) {
    fly(conn, nullptr);
  }
}

}  // namespace docket::postgres::detail
