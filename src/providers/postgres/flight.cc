#include "providers/postgres/flight.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "providers/postgres/exec.h"
#include "providers/postgres/round_trips.h"

namespace docket::postgres {
namespace {

// Leaves pipeline mode however the flight ends: on an early exit it reads what the
// server still sends up to the sync, so the connection is usable again. A connection
// that cannot leave pipeline mode is not idle() and its pool discards it.
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
    if (!synced_) {
      for (int unread = 0; unread < 64 && conn_.healthy(); ++unread) {
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

  // The next result of the flight: one per command, each followed by the nullptr that
  // ends that command's results. A nullptr in its place is a connection failure.
  Result next_command_result() {
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
  bool synced_ = false;
};

bool send_command(PGconn* pg, const std::string& command) {
  return PQsendQueryParams(pg, command.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
}

// Sends the deferred commands, then `send` when given; returns the statement's result.
std::optional<Result> fly(Connection& conn, const StatementSender* send) {
  count_round_trip();
  PGconn* pg = conn.native();
  // Forgotten before anything is sent: once the flight starts, the server holds them.
  const std::vector<std::string> commands = conn.take_deferred();
  std::optional<Result> statement;
  std::optional<std::pair<Result, std::string>> failed;
  {
    PipelineMode pipeline(conn);
    for (const std::string& command : commands) {
      if (!send_command(pg, command)) {
        throw_failure(conn, Result(nullptr), command);
      }
    }
    if (send != nullptr && (*send)(pg) != 1) {
      throw_failure(conn, Result(nullptr), "a statement after " + commands.back());
    }
    if (PQpipelineSync(pg) != 1) {
      throw_failure(conn, Result(nullptr), "a pipeline sync");
    }
    for (const std::string& command : commands) {
      Result result = pipeline.next_command_result();
      if (!result.ok() && !failed) {
        failed.emplace(std::move(result), command);
      }
    }
    if (send != nullptr) {
      statement.emplace(pipeline.next_command_result());
    }
    pipeline.read_sync();
  }
  if (failed) {
    throw_failure(conn, failed->first, failed->second);
  }
  return statement;
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

}  // namespace docket::postgres
