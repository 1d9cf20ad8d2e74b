// What `docket outbox list`, `replay`, `skip` and `stats` (and `docket dashboard`, which
// answers with the same reads and writes) share: the filters over parked messages
// (--error-like, --destination, --since, --limit), the paged read that applies them, the
// opening of an outbox other processes can see, the checks of a message id, the replay
// or skip of one parked message and the refusal of one that names no parked message,
// and how a parked message and the outbox's counts are printed.
//
// Invariants: every check of the command line (a filter, an id, a limit) is made before
// the store is opened, so a refused command line opens, reads and writes nothing; the
// filters read the store only through OutboxStore::parked(), in pages of
// kParkedPageSize, so a run holds one page at a time whatever the outbox's size.
//
// Thread-safety: values and functions of the calling thread.
#ifndef DOCKET_TOOLS_DOCKET_OUTBOX_COMMAND_SUPPORT_H_
#define DOCKET_TOOLS_DOCKET_OUTBOX_COMMAND_SUPPORT_H_

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/outbox/outbox_stats.h"
#include "docket/outbox/outbox_store.h"

namespace docket::tool {

// Parked messages read per OutboxStore::parked() request.
inline constexpr std::size_t kParkedPageSize = 500;
// The largest --limit: far beyond what a terminal shows, small enough to keep a run's
// list of ids (replay --all) in memory.
inline constexpr std::size_t kMaxParkedLimit = 1'000'000;

// The filter options as given on the command line, unchecked.
struct ParkedFilterOptions {
  std::optional<std::string> error_like;
  std::optional<std::string> destination;
  std::optional<std::string> since;  // duration text: 90s, 15m, 12h, 30d
  std::optional<std::size_t> limit;

  bool any() const { return error_like || destination || since || limit; }
};

// Adds --error-like, --destination, --since and --limit to `command`, storing into
// `options`, which must outlive the command. `limit_help` says what --limit bounds.
void add_parked_filter_options(CLI::App& command, ParkedFilterOptions& options,
                               const std::string& limit_help);

// The checked filters. A parked message matches when every given filter holds:
//  - error_like: its last error contains the text, byte for byte (a plain substring,
//    case-sensitive, no wildcards or patterns);
//  - destination: where it is published (destination_of(): its destination, or its
//    event type where it has none) equals the text;
//  - since: its last attempt became due at or after now - DURATION. A parked message's
//    next_attempt_at is when its last, parking attempt became due (parking leaves it
//    as it was); the store keeps no time of the attempt itself nor of the parking, and
//    a relay makes the attempt at or after that time, normally within one poll.
class ParkedFilter {
 public:
  // Throws UsageError (exit 2) naming the option for an empty --error-like or
  // --destination, a --since that is not a duration in range, a --limit of 0 or above
  // kMaxParkedLimit; InvalidInputError (exit 1) for text that is not UTF-8. `command`
  // ("outbox list") prefixes the messages; `now` is the time --since counts back from.
  ParkedFilter(std::string_view command, const ParkedFilterOptions& options, Timestamp now);

  bool matches(const OutboxRecord& record) const;
  // The same filters on a message of any status (`outbox list --status pending`, ...);
  // --since then counts on its next_attempt_at as it is.
  bool matches_any_status(const OutboxRecord& record) const;

  // At most this many matches are taken (nullopt: every one).
  std::optional<std::size_t> limit() const { return limit_; }

  // The filters for --json output: each given one, the others null.
  nlohmann::json to_json() const;
  // The filters in words ("last error containing 'timeout', destination 'orders'"), or
  // "no filter".
  std::string describe() const;

 private:
  std::optional<std::string> error_like_;
  std::optional<std::string> destination_;
  std::optional<Timestamp> cutoff_;
  std::optional<std::size_t> limit_;
};

// Calls `visit` with each parked message `filter` matches, in sequence order, reading
// OutboxStore::parked() a page at a time; stops early when `visit` returns false.
// Ignores filter.limit(): the caller counts.
void for_each_parked(OutboxStore& store, const ParkedFilter& filter,
                     const std::function<bool(const OutboxRecord&)>& visit);

// Opens the outbox at `url` for `command`. Throws what open_outbox_store throws for a
// URL it cannot use, and ConfigurationError (exit 1) for a store private to the
// process that opens it (memory:, sqlite::memory:), whose outbox this process would
// find empty: listing, replaying or skipping there would touch nothing of a service's.
std::unique_ptr<OutboxStore> open_shared_outbox(std::string_view command, std::string_view url);

// Throws UsageError (exit 2) for an empty --id and InvalidInputError (exit 1) for one
// that is not UTF-8, before anything is opened.
void check_message_id(std::string_view command, std::string_view id);

// The refusal of an id that names no parked message: an InvalidInputError (exit 1) that
// also says whether the outbox holds a message with that id at all (the dashboard
// answers 404 when it does not, 409 when the message is in another status).
class NotParkedError : public InvalidInputError {
 public:
  NotParkedError(const std::string& message, bool exists)
      : InvalidInputError(message), exists_(exists) {}
  bool exists() const noexcept { return exists_; }

 private:
  bool exists_;
};

// Throws NotParkedError: "<command>: no parked message with id '<id>'", and why, from
// `found` (the message as OutboxStore::find() returned it, or nullopt): no message has
// that id, or it is done, skipped or pending, saying which, and that nothing was changed.
[[noreturn]] void refuse_not_parked(std::string_view command, std::string_view id,
                                    const std::optional<OutboxRecord>& found);

// What repair_parked_message does to the message.
enum class ParkedRepair {
  kReplay,  // OutboxStore::replay: pending again, attempts reset, due now
  kSkip,    // OutboxStore::skip: done without being published, its ordering key released
};

// Replays or skips the parked message `id` (on a dry run, only checks that it is parked)
// and returns it as it was found, parked. Throws NotParkedError (refuse_not_parked) when
// it is not parked, whether when read or when written (another process replayed or
// skipped it between the two); nothing is changed then.
OutboxRecord repair_parked_message(OutboxStore& store, std::string_view command,
                                   const std::string& id, ParkedRepair repair, bool dry_run);

// A parked message as a JSON object: id, sequence, tenant, destination (as published),
// ordering_key, event_type, attempts, last_error, created_at, last_attempt_due_at.
nlohmann::json parked_json(const OutboxRecord& record);

// An outbox's counts as `outbox stats --json` prints them: total and destinations (each
// pending, due, in_backoff, scheduled, parked, done, skipped, cancelled),
// oldest_due_created_at and oldest_due_age_seconds (null when nothing is due), the age
// counted to `now`.
nlohmann::json outbox_stats_json(const OutboxStats& stats, Timestamp now);

// A parked message as three or four lines of text.
void print_parked(std::ostream& out, const OutboxRecord& record);

// `value` as one line of JSON. Its texts are UTF-8: the stored ones went through
// escape_invalid_utf8 (docket/core/utf8.h), so no byte is replaced.
std::string json_line(const nlohmann::json& value);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_OUTBOX_COMMAND_SUPPORT_H_
