// The raw limit of the event store on PostgreSQL: what docket's PostgreSQL event store
// does for an append and a load, written directly against libpq.
//
// The statements are those of src/providers/postgres/event_rows.cc, verbatim, with the
// parameters bound as docket binds them, in the same transaction shape:
//   append: BEGIN ISOLATION LEVEL READ COMMITTED; SELECT MAX(version) of the stream; if
//           it is not the expected version, ROLLBACK (a conflict); else SAVEPOINT
//           docket_append, docket_reserve_positions (the positions announced in
//           flight), per event the INSERT, RELEASE SAVEPOINT docket_append, COMMIT. An
//           INSERT refused by the stream key (a concurrent appender won) rolls back to
//           the savepoint, reads the version again and ends as a conflict, as docket's;
//   load:   the SELECT of the stream's events from version 0, text results, every
//           value read.
// Every statement (BEGIN and COMMIT included) is prepared once per connection.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_EVENTS_POSTGRES_H_
#define DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_EVENTS_POSTGRES_H_

#include <cstdint>
#include <string>

#include "event_session.h"
#include "raw_postgres.h"

namespace docket::bench {

class RawEventsPostgres final : public EventSession {
 public:
  // `url`: a libpq URL whose search_path is the raw baseline's schema, migrated.
  explicit RawEventsPostgres(const std::string& url);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  std::int64_t stream_version(const AppendCall& call);
  // Draws and announces `n` global positions into positions_.
  void reserve_positions(std::size_t n);
  // Inserts the call's events after `current`; false when the stream key refused one.
  bool insert_events(const AppendCall& call, std::int64_t current);

  RawPostgres db_;
  std::int64_t tag_ = 0;  // docket_events' advisory lock tag in this schema
  std::vector<std::int64_t> positions_;
  std::uint64_t sink_ = 0;  // what the loads read, so that reading is not optimised out
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_POSTGRES_BENCH_RAW_EVENTS_POSTGRES_H_
