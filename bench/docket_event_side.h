// docket's side of `docket bench events`: the public EventStore API. An append builds
// its StreamId (validated, as every caller's is) and appends with ExpectedVersion
// exactly(n) (no_stream() for a new stream); a load is EventStore::load from version
// 0. The events are reused per session, as a caller reuses its buffers.
//
// Thread-safety: the store is shared; a session belongs to one thread.
#ifndef DOCKET_BENCH_DOCKET_EVENT_SIDE_H_
#define DOCKET_BENCH_DOCKET_EVENT_SIDE_H_

#include <memory>
#include <vector>

#include "bench_store.h"
#include "docket/event_store.h"
#include "event_session.h"

namespace docket::bench {

// docket's event store on `db`, a side's database as BenchStore names it (a SQLite
// file or a libpq URL), through sqlite::open_event_store or postgres::open_event_store
// (the URL front ends do not open event stores yet), with at least a pooled connection
// per thread. Opening creates the event sourcing tables.
std::unique_ptr<EventStore> open_bench_event_store(BenchProvider provider, const std::string& db,
                                                   std::size_t threads);

class DocketEventSession final : public EventSession {
 public:
  explicit DocketEventSession(EventStore& store);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  EventStore& store_;
  TenantId tenant_;
  std::vector<NewEvent> events_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_DOCKET_EVENT_SIDE_H_
