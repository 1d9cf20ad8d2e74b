#include "docket_event_side.h"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "docket/postgres/event_store.h"
#include "docket/sqlite/event_store.h"

namespace docket::bench {

std::unique_ptr<EventStore> open_bench_event_store(BenchProvider provider, const std::string& db,
                                                   std::size_t threads) {
  if (provider == BenchProvider::kPostgres) {
    postgres::StoreOptions options{.conninfo = db};
    options.max_connections = std::max(options.max_connections, threads);
    return postgres::open_event_store(std::move(options));
  }
  sqlite::StoreOptions options{.path = db};
  options.max_connections = std::max(options.max_connections, threads);
  return sqlite::open_event_store(std::move(options));
}

DocketEventSession::DocketEventSession(EventStore& store)
    : store_(store), tenant_(kBenchStreamTenant) {}

void DocketEventSession::append(const AppendCall& call, StreamVersions& versions,
                                AppendCounts& counts) {
  if (events_.size() < call.events) {
    events_.resize(call.events, NewEvent{.type = std::string(kBenchEventName),
                                         .payload = std::string(kBenchEventBody)});
  }
  const StreamId stream(tenant_, call.aggregate_type, call.aggregate_id);
  const std::int64_t known = versions.get(call.stream);
  const ExpectedVersion expected =
      known < 0 ? ExpectedVersion::no_stream() : ExpectedVersion::exactly(known);
  const AppendResult result =
      store_.append(stream, expected, std::span<const NewEvent>(events_.data(), call.events));
  if (result.succeeded()) {
    versions.set(call.stream, result.success().new_version);
    ++counts.ok;
    counts.events += call.events;
  } else {
    versions.set(call.stream, result.conflict().actual_version);
    ++counts.conflicts;
  }
}

std::size_t DocketEventSession::load(std::string_view aggregate_type,
                                     std::string_view aggregate_id) {
  return store_.load(StreamId(tenant_, aggregate_type, aggregate_id)).size();
}

}  // namespace docket::bench
