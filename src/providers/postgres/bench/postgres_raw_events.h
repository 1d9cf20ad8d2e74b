// The raw limit of the event store on PostgreSQL: an append and a load done the
// fastest way libpq allows, not docket's statements replayed.
//
//   append: one autocommit statement, so one round trip whatever the number of
//           events: the stream's version checked in a CTE, every event inserted by
//           one multi-row INSERT (positions from the identity default), a stale
//           expectation inserting nothing and a unique violation on the stream key
//           (a concurrent appender won) read as a conflict, after which the version
//           is read again. It keeps no late-commit protocol: that is docket's
//           guarantee, and its cost is part of what the ratio shows;
//   load:   the SELECT of the stream's events from version 0, text results, every
//           value read.
// Every statement is prepared once per connection (one append statement per number
// of events).
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_EVENTS_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_EVENTS_POSTGRES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "event_session.h"
#include "postgres_raw.h"

namespace docket::bench {

class RawEventsPostgres final : public EventSession {
 public:
  // `url`: a libpq URL whose search_path is the raw baseline's schema, migrated.
  explicit RawEventsPostgres(const std::string& url);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  std::int64_t stream_version(const AppendCall& call);
  // The name of the append statement for `events` events, prepared on first use.
  const char* append_statement(std::size_t events);

  RawPostgres db_;
  std::vector<std::string> append_names_;  // indexed by events per append
  std::vector<RawPgParam> params_;
  std::uint64_t sink_ = 0;  // what the loads read, so that reading is not optimised out
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_EVENTS_POSTGRES_H_
