// A place in a store's feed (EventStore::read_feed), between two events: a read from
// a cursor returns what comes after it. A consumer keeps the cursor's text in a
// CheckpointStore and parses it back to resume.
//
// The text is one of three forms, told apart by their first byte:
//   "0"             start(): the beginning of every feed, whatever its kind;
//   "<decimal>"     a feed of global positions (docket/core/store_capabilities.h): the next
//                   global position to read, canonical (no sign, no leading zero), the
//                   text checkpoints held before cursors existed, so they still resume;
//   "<scheme>:<body>"  a feed of opaque cursors: `scheme` (a lower-case letter, then
//                   lower-case letters, digits, '-' or '.', at most 32 bytes) names the
//                   store's encoding and its version, and a store that changes its
//                   encoding takes a new scheme; `body` is the store's, non-empty.
// A store accepts only its own form (EventStore::accepts_cursor), so a cursor of one
// feed kind is never read as another's: read_feed refuses it with InvalidInputError.
//
// Invariants: the text is well-formed as above, valid UTF-8 without control
// characters (it fits a CheckpointStore and prints on one line). Two cursors are equal
// when their texts are.
//
// Thread-safety: immutable value type.
#ifndef DOCKET_CORE_FEED_CURSOR_H_
#define DOCKET_CORE_FEED_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace docket {

// The longest scheme of an opaque cursor.
inline constexpr std::size_t kMaxFeedCursorSchemeBytes = 32;

class FeedCursor {
 public:
  // start().
  FeedCursor() : text_("0") {}

  // The beginning of every feed.
  static FeedCursor start() { return FeedCursor(); }

  // The cursor of a global-position feed before `next_position` (>= 0; 0 and 1 both
  // read from the beginning). Throws InvalidInputError for a negative position.
  static FeedCursor at_position(std::int64_t next_position);

  // An opaque cursor "<scheme>:<body>", as a store without global order makes it.
  // Throws InvalidInputError naming what is wrong when the scheme or body breaks the
  // rules above.
  static FeedCursor opaque(std::string_view scheme, std::string_view body);

  // A cursor from its text(). Throws InvalidInputError naming the text and the rule it
  // breaks; try_parse returns nullopt instead.
  static FeedCursor parse(std::string_view text);
  static std::optional<FeedCursor> try_parse(std::string_view text);

  bool is_start() const noexcept { return text_ == "0"; }
  // The global position to read next: a decimal cursor's value (0 for start()), or
  // nullopt for an opaque cursor.
  std::optional<std::int64_t> position() const noexcept;
  // An opaque cursor's scheme and body; empty for start() and positions.
  std::string_view scheme() const noexcept;
  std::string_view body() const noexcept;

  // The text to keep (in a CheckpointStore) and parse back.
  const std::string& text() const noexcept { return text_; }

  friend bool operator==(const FeedCursor&, const FeedCursor&) = default;

 private:
  explicit FeedCursor(std::string text) : text_(std::move(text)) {}

  std::string text_;
};

// Prints the cursor's text.
std::ostream& operator<<(std::ostream& os, const FeedCursor& cursor);

}  // namespace docket

#endif  // DOCKET_CORE_FEED_CURSOR_H_
