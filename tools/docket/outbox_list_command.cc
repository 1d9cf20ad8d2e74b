// docket outbox list: the messages of an outbox in one status, filtered, read a page at
// a time through OutboxStore::parked() (--status parked) or OutboxStore::list() (the
// others). --status scheduled is the pending messages never attempted and due later
// (OutboxMessage::deliver_at).
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/stores/printable_store_url.h"
#include "outbox_command.h"
#include "outbox_command_support.h"

namespace docket::tool {
namespace {

// Messages shown when --limit is not given: a screenful of a few pages' worth.
constexpr std::size_t kOutboxListDefaultLimit = 100;

struct OutboxListArgs {
  std::string store;
  std::string status;
  ParkedFilterOptions filters;
  bool json = false;
};

// The statuses --status takes: every OutboxStatus by name, and "scheduled".
constexpr std::string_view kListedStatuses = "parked, pending, scheduled, done, skipped, cancelled";

// The stored status a --status reads, and whether only scheduled messages are wanted.
struct ListedStatus {
  OutboxStatus status = OutboxStatus::kParked;
  bool scheduled_only = false;
};

std::optional<ListedStatus> listed_status(std::string_view text) {
  if (text == "scheduled")
    return ListedStatus{.status = OutboxStatus::kPending, .scheduled_only = true};
  for (const OutboxStatus status :
       {OutboxStatus::kParked, OutboxStatus::kPending, OutboxStatus::kDone, OutboxStatus::kSkipped,
        OutboxStatus::kCancelled}) {
    if (text == to_string(status))
      return ListedStatus{.status = status};
  }
  return std::nullopt;
}

// Refuses (a usage error, exit status 2) a status no message has, naming those it lists.
const CLI::Validator& outbox_list_status() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        if (listed_status(text))
          return {};
        return "'" + text + "' is not a status this command lists; pass one of " +
               std::string(kListedStatuses);
      },
      "STATUS");
  return validator;
}

void run_outbox_list(const OutboxListArgs& args) {
  ParkedFilterOptions options = args.filters;
  if (!options.limit) {
    options.limit = kOutboxListDefaultLimit;
  }
  const ParkedFilter filter("outbox list", options, SystemClock::instance().now());
  const auto store = open_shared_outbox("outbox list", args.store);
  const std::size_t limit = *filter.limit();
  const ListedStatus listed = *listed_status(args.status);
  const Timestamp now = SystemClock::instance().now();
  std::vector<OutboxRecord> shown;
  bool more = false;
  const auto take = [&](const OutboxRecord& record) {
    if (shown.size() == limit) {
      more = true;  // one match past the limit: enough to say there are more
      return false;
    }
    shown.push_back(record);
    return true;
  };
  if (listed.status == OutboxStatus::kParked) {
    for_each_parked(*store, filter, take);
  } else {
    std::int64_t after = 0;
    for (bool going = true; going;) {
      const std::vector<OutboxRecord> page = store->list(listed.status, after, kParkedPageSize);
      if (page.empty())
        break;
      for (const OutboxRecord& record : page) {
        after = record.sequence;
        const bool scheduled = record.attempts == 0 && record.next_attempt_at > now;
        if ((!listed.scheduled_only || scheduled) && filter.matches_any_status(record) &&
            !take(record)) {
          going = false;
          break;
        }
      }
    }
  }

  if (args.json) {
    nlohmann::json messages = nlohmann::json::array();
    for (const OutboxRecord& record : shown) {
      messages.push_back(parked_json(record));
    }
    std::cout << json_line({{"store", printable_store_url(args.store)},
                            {"status", args.status},
                            {"filters", filter.to_json()},
                            {"count", shown.size()},
                            {"more", more},
                            {"messages", std::move(messages)}})
              << '\n';
    return;
  }
  std::cout << args.status << " messages of " << printable_store_url(args.store) << " ("
            << filter.describe() << ")\n";
  for (const OutboxRecord& record : shown) {
    print_parked(std::cout, record);
  }
  if (shown.empty()) {
    std::cout << "no " << args.status << " message matches\n";
  } else {
    std::cout << shown.size() << " " << args.status
              << (shown.size() == 1 ? " message" : " messages")
              << (more ? "; more match: raise --limit to see them" : "") << '\n';
  }
}

}  // namespace

void add_outbox_list_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxListArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "list",
      "Messages of an outbox in one status, oldest first, with their route, attempts and last "
      "error: parked (those the relay gave up on after max_attempts, or that the transport "
      "refused for good), pending, scheduled (pending, never attempted, due later), done, "
      "skipped or cancelled; filtered by --error-like, --destination and --since.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--status", args->status,
                  "Which messages: parked, pending, scheduled, done, skipped or cancelled")
      ->check(outbox_list_status())
      ->required();
  add_parked_filter_options(*cmd, args->filters,
                            "Show at most N messages (1..1000000, default 100)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_list(*args); });
}

}  // namespace docket::tool
