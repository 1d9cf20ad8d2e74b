#include "docket/inbox/inbox_options.h"

#include <limits>
#include <utility>

#include "docket/core/error.h"
#include "inbox/text_checks.h"

namespace docket {

std::optional<std::string> consumer_id_problem(std::string_view consumer_id) {
  if (auto problem =
          inbox::text_problem("consumer id", consumer_id, std::numeric_limits<std::size_t>::max(),
                              /*allow_blank=*/false)) {
    return problem;
  }
  const std::size_t chars = inbox::count_code_points(consumer_id);
  if (chars > kMaxConsumerIdChars) {
    return "consumer id is " + std::to_string(chars) + " characters long, over the " +
           std::to_string(kMaxConsumerIdChars) + "-character limit";
  }
  return std::nullopt;
}

InboxOptions::InboxOptions(std::string consumer_id, DedupCheck dedup,
                           std::shared_ptr<Observer> observer, UnhandledTypes unhandled)
    : consumer_id_(std::move(consumer_id)),
      dedup_(dedup),
      observer_(std::move(observer)),
      unhandled_(unhandled) {
  if (auto problem = consumer_id_problem(consumer_id_)) {
    throw ConfigurationError(
        "inbox options: " + *problem +
        "; set a stable, non-blank consumer id of at most 256 characters per subscriber");
  }
}

}  // namespace docket
