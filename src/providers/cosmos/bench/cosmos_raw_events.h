// The raw limit of `docket bench events` on Cosmos DB: the fastest correct append and load
// the service allows, sent directly through the provider's client (cosmos_raw_rest.h),
// into items of the shape docket's event store writes (cosmos_event_item.h) so that the
// bench's checks read both sides alike.
//
// An append of one event to a stream expected absent is one point create of its version
// "0" (409 when the stream exists). Any other append is ONE transactional batch in the
// stream's partition: a Read of the item at the expected version N (404 when the stream
// is not there yet) and a Create per event at N+1, N+2, ... (409 when a version is
// written already), so a stale expectation fails the whole batch and nothing is applied,
// never a partial append. A conflict reads the stream's top version (one query of its
// partition). A load is one query of the partition, every page.
//
// Thread-safety: one session per thread, each with its own client and connections.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_EVENTS_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_EVENTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cosmos_raw_rest.h"
#include "event_session.h"

namespace docket::bench {

class RawEventsCosmos final : public EventSession {
 public:
  // `url`: the raw side's store URL (its events container made already).
  explicit RawEventsCosmos(const std::string& url);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  // The stream's highest version, -1 when it has none.
  std::int64_t stream_version(const std::string& key);

  RawRest rest_;
  std::string container_;
  std::size_t sink_ = 0;  // what load read, so that it is not optimised away
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_EVENTS_H_
