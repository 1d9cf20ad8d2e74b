#include "outbox_command_support.h"

#include <iostream>
#include <utility>
#include <vector>

#include "count_option.h"
#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/outbox/outbox_message.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "duration_option.h"
#include "shared_store.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

// An optional text filter: refused when empty (a usage error: it would match
// everything or nothing, never what was meant) or not UTF-8 (refused, as every term).
void check_filter_text(std::string_view command, std::string_view option,
                       const std::optional<std::string>& text, std::string_view what) {
  if (!text) {
    return;
  }
  if (text->empty()) {
    throw UsageError(std::string(command) + ": " + std::string(option) + " is empty; pass " +
                     std::string(what) + ", or leave the option out");
  }
  require_valid_utf8(std::string(command) + ": " + std::string(option), *text);
}

// Stored text as JSON: bytes that are not UTF-8 (a row something else wrote) escaped
// as \xNN, none replaced.
nlohmann::json optional_text(const std::optional<std::string>& text) {
  return text ? nlohmann::json(escape_invalid_utf8(*text)) : nlohmann::json(nullptr);
}

}  // namespace

void add_parked_filter_options(CLI::App& command, ParkedFilterOptions& options,
                               const std::string& limit_help) {
  command.add_option("--error-like", options.error_like,
                     "Only messages whose last error contains TEXT (a plain, case-sensitive "
                     "substring: no wildcards, no patterns)");
  command.add_option("--destination", options.destination,
                     "Only messages published to this destination (exactly; a message staged "
                     "without one is published to its event type)");
  command
      .add_option("--since", options.since,
                  "Only messages whose last attempt became due within this long before now: "
                  "90s, 15m, 12h, 30d")
      ->check(duration_text());
  command.add_option("--limit", options.limit, limit_help)->check(whole_count());
}

ParkedFilter::ParkedFilter(std::string_view command, const ParkedFilterOptions& options,
                           Timestamp now)
    : error_like_(options.error_like), destination_(options.destination), limit_(options.limit) {
  check_filter_text(command, "--error-like", options.error_like, "text the last error contains");
  check_filter_text(command, "--destination", options.destination,
                    "the destination the messages are published to");
  if (options.since) {
    cutoff_ = now - parse_duration("--since", *options.since);
  }
  if (limit_ && (*limit_ == 0 || *limit_ > kMaxParkedLimit)) {
    throw UsageError(std::string(command) + ": --limit is " + std::to_string(*limit_) +
                     "; pass 1 to " + std::to_string(kMaxParkedLimit) + " (messages at most)");
  }
}

bool ParkedFilter::matches(const OutboxRecord& record) const {
  return record.status == OutboxStatus::kParked && matches_any_status(record);
}

bool ParkedFilter::matches_any_status(const OutboxRecord& record) const {
  if (destination_ && destination_of(record) != *destination_) {
    return false;
  }
  if (error_like_ &&
      (!record.last_error || record.last_error->find(*error_like_) == std::string::npos)) {
    return false;
  }
  return !cutoff_ || record.next_attempt_at >= *cutoff_;
}

nlohmann::json ParkedFilter::to_json() const {
  return {{"error_like", optional_text(error_like_)},
          {"destination", optional_text(destination_)},
          {"last_attempt_due_since",
           cutoff_ ? nlohmann::json(format_timestamp(*cutoff_)) : nlohmann::json(nullptr)},
          {"limit", limit_ ? nlohmann::json(*limit_) : nlohmann::json(nullptr)}};
}

std::string ParkedFilter::describe() const {
  std::vector<std::string> parts;
  if (error_like_) {
    parts.push_back("last error containing '" + *error_like_ + "'");
  }
  if (destination_) {
    parts.push_back("destination '" + *destination_ + "'");
  }
  if (cutoff_) {
    parts.push_back("last attempt due since " + format_timestamp(*cutoff_));
  }
  if (limit_) {
    parts.push_back("at most " + std::to_string(*limit_));
  }
  if (parts.empty()) {
    return "no filter";
  }
  std::string text;
  for (const std::string& part : parts) {
    text += (text.empty() ? "" : ", ") + part;
  }
  return text;
}

void for_each_parked(OutboxStore& store, const ParkedFilter& filter,
                     const std::function<bool(const OutboxRecord&)>& visit) {
  std::int64_t after = 0;
  // Until a page comes back empty: the SPI promises at most, not exactly, a page's
  // worth, so a short page does not prove the end.
  for (;;) {
    const std::vector<OutboxRecord> page = store.parked(after, kParkedPageSize);
    if (page.empty()) {
      return;
    }
    for (const OutboxRecord& record : page) {
      after = record.sequence;
      if (filter.matches(record) && !visit(record)) {
        return;
      }
    }
  }
}

std::unique_ptr<OutboxStore> open_shared_outbox(std::string_view command, std::string_view url) {
  std::unique_ptr<OutboxStore> store = open_outbox_store(url);
  require_service_store(command, url, store->capabilities(), "outbox");
  return store;
}

void check_message_id(std::string_view command, std::string_view id) {
  if (id.empty()) {
    throw UsageError(std::string(command) +
                     ": --id is empty; pass the id of a parked message, as `docket outbox list "
                     "--status parked` shows it");
  }
  require_valid_utf8(std::string(command) + ": --id", id);
}

void refuse_not_parked(std::string_view command, std::string_view id,
                       const std::optional<OutboxRecord>& found) {
  std::string why;
  if (!found) {
    why =
        "the outbox holds no message with that id (done messages are deleted by retention "
        "after a while); `docket outbox list --status parked` lists the parked ones";
  } else {
    switch (found->status) {
      case OutboxStatus::kDone:
        why = "it is done: it was published" +
              (found->done_at ? " at " + format_timestamp(*found->done_at) : std::string()) +
              ", so there is nothing to replay or skip";
        break;
      case OutboxStatus::kSkipped:
        why = "it was skipped" +
              (found->done_at ? " at " + format_timestamp(*found->done_at) : std::string()) +
              " (done without being published) and is never sent";
        break;
      case OutboxStatus::kCancelled:
        why = "it was cancelled" +
              (found->done_at ? " at " + format_timestamp(*found->done_at) : std::string()) +
              " before it was published, and is never sent";
        break;
      case OutboxStatus::kPending:
        why = "it is pending: relays still have it (" + std::to_string(found->attempts) +
              " failed attempts so far, next attempt due " +
              format_timestamp(found->next_attempt_at) +
              "); only a message the relay parked can be replayed or skipped";
        break;
      case OutboxStatus::kParked:
        // Parked when read back: it changed again after the write was refused.
        why = "it was not parked when the command reached it; run the command again";
        break;
    }
  }
  throw NotParkedError(std::string(command) + ": no parked message with id '" + std::string(id) +
                           "': " + why + ". Nothing was changed.",
                       found.has_value());
}

OutboxRecord repair_parked_message(OutboxStore& store, std::string_view command,
                                   const std::string& id, ParkedRepair repair, bool dry_run) {
  const std::optional<OutboxRecord> found = store.find(id);
  if (!found || found->status != OutboxStatus::kParked) {
    refuse_not_parked(command, id, found);
  }
  if (dry_run) {
    return *found;
  }
  const Timestamp now = SystemClock::instance().now();
  if (!(repair == ParkedRepair::kReplay ? store.replay(id, now) : store.skip(id, now))) {
    // Replayed or skipped by someone else between the read and the write.
    refuse_not_parked(command, id, store.find(id));
  }
  return *found;
}

nlohmann::json outbox_stats_json(const OutboxStats& stats, Timestamp now) {
  const auto counts = [](const OutboxCounts& c) {
    return nlohmann::json{{"pending", c.pending()},     {"due", c.due},
                          {"in_backoff", c.in_backoff}, {"scheduled", c.scheduled},
                          {"parked", c.parked},         {"done", c.done},
                          {"skipped", c.skipped},       {"cancelled", c.cancelled}};
  };
  nlohmann::json destinations = nlohmann::json::object();
  for (const auto& [destination, by_destination] : stats.by_destination) {
    destinations[destination] = counts(by_destination);
  }
  const std::optional<Timestamp>& oldest = stats.oldest_due_created_at;
  return {{"total", counts(stats.total)},
          {"destinations", std::move(destinations)},
          {"oldest_due_created_at",
           oldest ? nlohmann::json(format_timestamp(*oldest)) : nlohmann::json(nullptr)},
          {"oldest_due_age_seconds",
           oldest ? nlohmann::json(std::chrono::duration<double>(now - *oldest).count())
                  : nlohmann::json(nullptr)}};
}

nlohmann::json parked_json(const OutboxRecord& record) {
  nlohmann::json json = {{"id", record.id},
                         {"sequence", record.sequence},
                         {"tenant", record.tenant},
                         {"destination", std::string(destination_of(record))},
                         {"ordering_key", optional_text(record.ordering_key)},
                         {"event_type", record.event_type},
                         {"status", std::string(to_string(record.status))},
                         {"attempts", record.attempts},
                         {"last_error", optional_text(record.last_error)},
                         {"created_at", format_timestamp(record.created_at)}};
  // What next_attempt_at means depends on the status: when the parking attempt became
  // due, when the next attempt is due; a message that is done has done_at instead.
  if (record.status == OutboxStatus::kParked) {
    json["last_attempt_due_at"] = format_timestamp(record.next_attempt_at);
  } else if (record.status == OutboxStatus::kPending) {
    json["next_attempt_at"] = format_timestamp(record.next_attempt_at);
  } else {
    json["done_at"] = record.done_at ? nlohmann::json(format_timestamp(*record.done_at))
                                     : nlohmann::json(nullptr);
  }
  return json;
}

void print_parked(std::ostream& out, const OutboxRecord& record) {
  out << record.id << '\n'
      << "  tenant " << record.tenant << ", destination " << destination_of(record)
      << ", ordering key " << (record.ordering_key ? *record.ordering_key : "(none)")
      << ", event type " << record.event_type << ", sequence " << record.sequence << '\n'
      << "  " << to_string(record.status) << ", attempts " << record.attempts << ", created "
      << format_timestamp(record.created_at);
  if (record.status == OutboxStatus::kParked) {
    out << ", last attempt due " << format_timestamp(record.next_attempt_at);
  } else if (record.status == OutboxStatus::kPending) {
    out << ", next attempt due " << format_timestamp(record.next_attempt_at);
  } else if (record.done_at) {
    out << ", done " << format_timestamp(*record.done_at);
  }
  out << '\n'
      << "  last error: "
      << (record.last_error ? escape_invalid_utf8(*record.last_error) : "(none recorded)") << '\n';
}

std::string json_line(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

}  // namespace docket::tool
