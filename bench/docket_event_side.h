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

#include "docket/eventsourcing/event_store.h"
#include "event_session.h"

namespace docket::bench {

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
