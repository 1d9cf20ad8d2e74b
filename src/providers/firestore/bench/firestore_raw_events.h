// The raw limit of `docket bench events` on Firestore: an optimistic append and a load
// sent the fastest correct way Firestore allows, through the provider's client, without
// docket's store.
//
// An append is one commit of a write per event, each with the precondition exists:
// false, so a stale expectation or a concurrent appender applies nothing. The expected
// version N is one this side appended or read, so the event at N exists (events are
// never deleted) and is not read first, as docket's store does not read an event it
// has seen (firestore_known_versions.h). On a refusal the stream's version is read (a
// query, newest first, limit 1), as an application would before retrying.
// A load is a query of the stream's fields ordered by version, paged. Documents have the
// shape docket's store writes (firestore_event_document.h), keyed by src/keys, so the
// bench's checks read both sides alike.
//
// Thread-safety: one session per thread, each with its own client and connection.
#ifndef DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_EVENTS_FIRESTORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_EVENTS_FIRESTORE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "docket/eventsourcing/stream_id.h"
#include "event_session.h"
#include "providers/firestore/firestore_client.h"

namespace docket::bench {

class RawEventsFirestore final : public EventSession {
 public:
  // `url`: a Firestore store URL whose prefix is the raw side's.
  explicit RawEventsFirestore(const std::string& url);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  std::int64_t stream_version(const StreamId& stream);

  firestore::detail::Client client_;
  std::string collection_;
  std::uint64_t sink_ = 0;  // what was read, so that reading is not optimised away
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_FIRESTORE_BENCH_RAW_EVENTS_FIRESTORE_H_
