// The event streams of a unit of work that buffers its writes until one atomic commit
// (the memory database's, DynamoDB's TransactWriteItems, a Firestore commit), so that
// EventStore::append inside it keeps the promises it keeps in a SQL transaction:
//  - the expected version is checked against the unit's view of the stream: the last
//    version the unit itself staged for it; before any, the stream as the store read it
//    the first time this unit asked (one read per stream and unit);
//  - a conflict is a value and stages nothing;
//  - each event is staged as a write that creates its own record (version) only where
//    it is free, so a unit of work that appended to the stream after this one read it
//    makes the commit fail, as a whole.
//
// Staged events are writes of the unit's own kind carrying a StagedEvent, so rolling
// back to a savepoint drops them and the view falls back to what remains; reads are not
// writes and are kept.
//
// Thread-safety: belongs to the one thread running the unit of work.
#ifndef DOCKET_PROVIDERS_KIT_UNIT_STREAMS_H_
#define DOCKET_PROVIDERS_KIT_UNIT_STREAMS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/version_conflict.h"
#include "docket/eventsourcing/append_result.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/expected_version.h"

namespace docket::kit {

// The conflict when a stream at `current` does not meet `expected`; otherwise numbers
// `events` current + 1, current + 2, ... and returns nullopt.
std::optional<VersionConflict> number_events(const StreamId& stream, ExpectedVersion expected,
                                             std::int64_t current,
                                             std::vector<RecordedEvent>& events);

// What append returns for `events` as numbered (and positioned, or 0 when the
// positions are assigned at commit).
AppendSuccess appended(const std::vector<RecordedEvent>& events);

// What a staged write that creates an event carries: its stream (the provider's key of
// it, and its description for errors) and its version.
struct StagedEvent {
  std::string stream_key;
  std::string stream;  // StreamId::describe()
  std::int64_t version = 0;
};

class UnitStreams {
 public:
  // The stream's version as the unit sees it: the highest version among `staged` (the
  // unit's writes, each with an `event` member of type std::optional<StagedEvent>) for
  // `stream_key`; else its first read, made by `read()` (returning the version, or
  // kNoStreamVersion) the first time only.
  template <class Write, class Read>
  std::int64_t view(const std::vector<Write>& staged, std::string_view stream_key, Read&& read) {
    std::optional<std::int64_t> last;
    for (const Write& write : staged) {
      if (write.event && write.event->stream_key == stream_key) {
        last = std::max(last.value_or(write.event->version), write.event->version);
      }
    }
    if (last) {
      return *last;
    }
    auto found = reads_.find(stream_key);
    if (found == reads_.end()) {
      found = reads_.emplace(std::string(stream_key), read()).first;
    }
    return found->second;
  }

  // Numbers `events` after the unit's view of `stream` (view() over `staged` with
  // `read`) and returns nullopt; or returns the conflict with `expected`, naming the
  // append, and numbers nothing.
  template <class Write, class Read>
  std::optional<VersionConflict> number(const std::vector<Write>& staged,
                                        std::string_view stream_key, Read&& read,
                                        const StreamId& stream, ExpectedVersion expected,
                                        std::vector<RecordedEvent>& events) {
    const std::int64_t base = view(staged, stream_key, std::forward<Read>(read));
    std::optional<VersionConflict> conflict = number_events(stream, expected, base, events);
    if (conflict) {
      conflict->subject = "append to " + stream.describe();
    }
    return conflict;
  }

  // The version the unit first read of the stream, or nullopt when it did not read it.
  std::optional<std::int64_t> first_read(std::string_view stream_key) const {
    const auto found = reads_.find(stream_key);
    return found == reads_.end() ? std::nullopt : std::optional(found->second);
  }

 private:
  std::map<std::string, std::int64_t, std::less<>> reads_;
};

// The error of a commit whose event `event` found its version taken: another unit of
// work appended to the stream after this one read it at `read` (nullopt: unknown).
ConcurrencyConflictError event_conflict(std::string_view store, const StagedEvent& event,
                                        std::optional<std::int64_t> read);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_UNIT_STREAMS_H_
