// docket outbox cancel: takes back one pending message before it is published
// (Outbox::cancel): a scheduled message that must not go out, or one in backoff that
// is no longer wanted. It is then never published and releases its ordering key. A
// message a relay has claimed, one already published, parked or cancelled, or an id no
// message has is refused (exit 1), naming which, and nothing is changed.
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "docket/core/error.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/printable_store_url.h"
#include "outbox_command.h"
#include "outbox_command_support.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

struct OutboxCancelArgs {
  std::string store;
  std::string id;
  bool json = false;
};

std::string cancel_refusal(const std::string& id, CancelOutcome outcome) {
  switch (outcome) {
    case CancelOutcome::kNotFound:
      return "outbox cancel: no message has id '" + id + "'; pass the id its producer staged";
    case CancelOutcome::kBeingPublished:
      return "outbox cancel: message " + id +
             " was claimed by a relay, which may be publishing it now: it was not cancelled "
             "and may be delivered; run again once the relay has recorded the attempt";
    case CancelOutcome::kAlreadyPublished:
      return "outbox cancel: message " + id + " was already published; nothing to take back";
    default:
      return "outbox cancel: message " + id +
             " is not pending (parked: `docket outbox skip` it instead; or skipped or "
             "cancelled already); nothing changed";
  }
}

void run_outbox_cancel(const OutboxCancelArgs& args) {
  if (args.id.empty()) {
    throw UsageError(
        "outbox cancel: --id is empty; pass the id of the pending message, as its producer "
        "staged it");
  }
  check_message_id("outbox cancel", args.id);
  const auto store = open_shared_outbox("outbox cancel", args.store);
  const CancelOutcome outcome = Outbox(*store).cancel(args.id);
  if (outcome != CancelOutcome::kCancelled)
    throw InvalidInputError(cancel_refusal(args.id, outcome));
  if (args.json) {
    std::cout << json_line({{"store", printable_store_url(args.store)},
                            {"id", args.id},
                            {"outcome", std::string(to_string(outcome))}})
              << '\n';
    return;
  }
  std::cout << "cancelled message " << args.id << " of " << printable_store_url(args.store)
            << ": it will never be published; its ordering key, if any, is released\n";
}

}  // namespace

void add_outbox_cancel_subcommand(CLI::App& outbox_group) {
  auto args = std::make_shared<OutboxCancelArgs>();
  CLI::App* cmd = outbox_group.add_subcommand(
      "cancel",
      "Take back one pending message (scheduled, due or in backoff) that no relay has claimed: "
      "it is never published and its ordering key is released. Any other message is refused "
      "(exit 1), naming why, and nothing is changed.");
  cmd->add_option("--store", args->store, "Store URL, e.g. sqlite:///var/lib/app/app.db")
      ->required();
  cmd->add_option("--id", args->id, "The message to cancel (its outbox id)")->required();
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->callback([args] { run_outbox_cancel(*args); });
}

}  // namespace docket::tool
