// Options of one inbox consumer, validated when constructed: a bad value fails at
// start-up, not on the first message.
//
// The consumer id is part of the dedup key: keep it stable across deploys (renaming
// it resets dedup history), and give every independent subscriber its own.
//
// Thread-safety: immutable after construction.
#ifndef DOCKET_INBOX_OPTIONS_H_
#define DOCKET_INBOX_OPTIONS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docket {

// Longest consumer id accepted, in Unicode characters (code points).
inline constexpr std::size_t kMaxConsumerIdChars = 256;

// What is wrong with `consumer_id` as a consumer id, or nullopt when it is fine: it
// must be non-blank, valid UTF-8 and at most kMaxConsumerIdChars characters. Callers
// throw the error type that fits their context (configuration or input).
std::optional<std::string> consumer_id_problem(std::string_view consumer_id);

class InboxOptions {
 public:
  // Throws ConfigurationError when consumer_id_problem(consumer_id) reports one.
  explicit InboxOptions(std::string consumer_id);

  const std::string& consumer_id() const noexcept { return consumer_id_; }

 private:
  std::string consumer_id_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_OPTIONS_H_
