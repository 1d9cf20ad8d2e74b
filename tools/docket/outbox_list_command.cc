// docket outbox list: the parked messages of an outbox, filtered, read through
// OutboxStore::parked() a page at a time. Only --status parked in this release: the
// other statuses are refused as usage errors naming the one supported.
#include <iostream>
#include <nlohmann/json.hpp>
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

// Refuses (a usage error, exit status 2) every status but "parked", naming it.
const CLI::Validator& outbox_list_status() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        if (text == "parked") {
          return {};
        }
        return "'" + text +
               "' is not a status this command lists; pass parked (messages the relay gave up "
               "on). Pending, done and skipped messages are not listed by this release";
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
  std::vector<OutboxRecord> shown;
  bool more = false;
  for_each_parked(*store, filter, [&](const OutboxRecord& record) {
    if (shown.size() == limit) {
      more = true;  // one match past the limit: enough to say there are more
      return false;
    }
    shown.push_back(record);
    return true;
  });

  if (args.json) {
    nlohmann::json messages = nlohmann::json::array();
    for (const OutboxRecord& record : shown) {
      messages.push_back(parked_json(record));
    }
    std::cout << json_line({{"store", printable_store_url(args.store)},
                            {"status", "parked"},
                            {"filters", filter.to_json()},
                            {"count", shown.size()},
                            {"more", more},
                            {"messages", std::move(messages)}})
              << '\n';
    return;
  }
  std::cout << "parked messages of " << printable_store_url(args.store) << " (" << filter.describe()
            << ")\n";
  for (const OutboxRecord& record : shown) {
    print_parked(std::cout, record);
  }
  if (shown.empty()) {
    std::cout << "no parked message matches\n";
  } else {
    std::cout << shown.size() << (shown.size() == 1 ? " parked message" : " parked messages")
              << (more ? "; more match: raise --limit to see them" : "") << '\n';
  }
}

}  // namespace

void add_outbox_list_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxListArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "list",
      "Parked messages of an outbox (those the relay gave up on after max_attempts, or that "
      "the transport refused for good), oldest first, with their route, attempts and last "
      "error; filtered by --error-like, --destination and --since.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--status", args->status, "Which messages: parked (the only one supported)")
      ->check(outbox_list_status())
      ->required();
  add_parked_filter_options(*cmd, args->filters,
                            "Show at most N messages (1..1000000, default 100)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_list(*args); });
}

}  // namespace docket::tool
