// The raw limit of the event store on SQLite: what docket's SQLite event store does
// for an append and a load, written directly against the C API.
//
// The statements are those of src/providers/sqlite/sqlite_event_rows.cc, verbatim, with
// the same parameters, in the same transaction shape:
//   append: BEGIN IMMEDIATE; SELECT MAX(version) of the stream; if it is not the
//           expected version, ROLLBACK (a conflict); else SAVEPOINT docket_append, per
//           event the INSERT ... RETURNING global_position, RELEASE docket_append,
//           COMMIT;
//   load:   the SELECT of the stream's events from version 0, every column read.
// Every statement (BEGIN and COMMIT included) is prepared once per connection.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_SQLITE_BENCH_RAW_EVENTS_SQLITE_H_
#define DOCKET_PROVIDERS_SQLITE_BENCH_RAW_EVENTS_SQLITE_H_

#include <cstdint>
#include <string>

#include "event_session.h"
#include "sqlite_raw.h"

namespace docket::bench {

class RawEventsSqlite final : public EventSession {
 public:
  explicit RawEventsSqlite(const std::string& path);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  std::int64_t stream_version(const AppendCall& call);
  void insert(const AppendCall& call, std::int64_t version, std::size_t event,
              std::int64_t occurred_at);

  RawSqlite db_;
  RawStatement begin_;
  RawStatement commit_;
  RawStatement rollback_;
  RawStatement savepoint_;
  RawStatement release_;
  RawStatement version_;
  RawStatement insert_;
  RawStatement load_;
  std::uint64_t sink_ = 0;  // what the loads read, so that reading is not optimised out
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_SQLITE_BENCH_RAW_EVENTS_SQLITE_H_
