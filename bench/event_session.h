// One thread's connection to one side of `docket bench events`: docket's EventStore
// (DocketEventSession) or a raw baseline (RawEventsSqlite, RawEventsPostgres). The
// bench drives every side through this interface, so both run the same calls.
//
// Thread-safety: a session belongs to one thread at a time.
#ifndef DOCKET_BENCH_EVENT_SESSION_H_
#define DOCKET_BENCH_EVENT_SESSION_H_

#include <cstddef>
#include <string_view>

#include "event_workload.h"

namespace docket::bench {

class EventSession {
 public:
  virtual ~EventSession() = default;

  // Appends call.events events to the stream, expecting the version `versions` holds
  // for it, and records the outcome in `versions` and `counts`. A conflict is counted,
  // not thrown; anything else throws.
  virtual void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) = 0;

  // Reads the whole stream; returns how many events it holds.
  virtual std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) = 0;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_EVENT_SESSION_H_
