#include "firestore_raw_events.h"

#include <vector>

#include "docket/core/uuid.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::string_view kRawFirestoreEvents = "raw Firestore events baseline";
constexpr std::size_t kRawLoadPage = 300;

}  // namespace

RawEventsFirestore::RawEventsFirestore(const std::string& url)
    : client_(firestore::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      collection_(client_.url().collection(firestore::detail::event::kCollection)) {}

void RawEventsFirestore::append(const AppendCall& call, StreamVersions& versions,
                                AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  const StreamId stream(TenantId(kBenchStreamTenant), call.aggregate_type, call.aggregate_id);
  const Timestamp at = kit::from_micros(now_micros());
  // `expected` is a version this side appended or read, so its event exists (events are
  // never deleted): no read before the commit, as docket's store skips it for versions
  // it has seen.
  bool applied = false;
  {
    std::vector<firestore::detail::Write> writes;
    for (std::size_t e = 0; e < call.events; ++e) {
      const RecordedEvent event{.stream = stream,
                                .version = expected + 1 + static_cast<std::int64_t>(e),
                                .global_position = 0,
                                .event_id = Uuid::parse(call.ids->id(call.first_id + e)).value(),
                                .type = std::string(kBenchEventName),
                                .payload = std::string(kBenchEventBody),
                                .metadata = {},
                                .occurred_at = at};
      writes.push_back({.collection = collection_,
                        .id = firestore::detail::event::event_id(stream, event.version),
                        .fields = firestore::detail::event::event_fields(event),
                        .precondition = {.exists = false}});
    }
    applied = firestore::detail::commit(client_, writes, kRawFirestoreEvents).applied;
  }
  if (!applied) {  // a stale expectation, or a concurrent appender took the version
    versions.set(call.stream, stream_version(stream));
    ++counts.conflicts;
    return;
  }
  versions.set(call.stream, expected + static_cast<std::int64_t>(call.events));
  ++counts.ok;
  counts.events += call.events;
}

std::int64_t RawEventsFirestore::stream_version(const StreamId& stream) {
  const std::vector<firestore::detail::Document> last = firestore::detail::run_query(
      client_,
      {.collection = collection_,
       .where = firestore::detail::all_of(firestore::detail::event::stream_filters(stream)),
       .order_by = {{std::string(firestore::detail::event::kVersion), true}},
       .limit = 1});
  for (const firestore::detail::Document& document : last) {
    return firestore::detail::FieldReader(document.fields, std::string(kRawFirestoreEvents))
        .integer(firestore::detail::event::kVersion);
  }
  return -1;
}

std::size_t RawEventsFirestore::load(std::string_view aggregate_type,
                                     std::string_view aggregate_id) {
  const StreamId stream(TenantId(kBenchStreamTenant), aggregate_type, aggregate_id);
  std::size_t events = 0;
  firestore::detail::query_pages(
      client_,
      {.collection = collection_,
       .where = firestore::detail::all_of(firestore::detail::event::stream_filters(stream)),
       .order_by = {{std::string(firestore::detail::event::kVersion), false}}},
      kRawLoadPage, [&](std::vector<firestore::detail::Document>& page) {
        for (const firestore::detail::Document& document : page) {
          sink_ += document.fields.size();
        }
        events += page.size();
        return true;
      });
  return events;
}

}  // namespace docket::bench
