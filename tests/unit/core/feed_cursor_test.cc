// FeedCursor: the three text forms round-trip through text() and parse(), a decimal
// checkpoint of a global-position feed (as written before cursors existed) parses as
// that position, and every malformed text or part is refused with what is wrong.
#include "docket/core/feed_cursor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "docket/core/error.h"

namespace docket::feed_cursor_test {
namespace {

// The message of the InvalidInputError that parse(text) throws; try_parse must agree.
std::string parse_refusal(std::string_view text) {
  EXPECT_EQ(FeedCursor::try_parse(text), std::nullopt) << text;
  try {
    FeedCursor::parse(text);
  } catch (const InvalidInputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "'" << text << "' was accepted as a cursor";
  return {};
}

template <typename Make>
std::string make_refusal(Make make) {
  try {
    make();
  } catch (const InvalidInputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "the cursor was made";
  return {};
}

bool mentions(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(FeedCursorTest, StartIsZeroAndTheDefault) {
  const FeedCursor start = FeedCursor::start();
  EXPECT_EQ(start.text(), "0");
  EXPECT_TRUE(start.is_start());
  EXPECT_EQ(start, FeedCursor());
  EXPECT_EQ(start.position(), 0);
  EXPECT_EQ(start.scheme(), "");
  EXPECT_EQ(start.body(), "");
  EXPECT_EQ(FeedCursor::parse("0"), start);
  EXPECT_EQ(FeedCursor::at_position(0), start);
  EXPECT_FALSE(FeedCursor::at_position(1).is_start());
}

TEST(FeedCursorTest, PositionsAreTheirDecimalText) {
  for (const std::int64_t position : {std::int64_t{1}, std::int64_t{7}, std::int64_t{1'000'000'007},
                                      std::numeric_limits<std::int64_t>::max()}) {
    const FeedCursor cursor = FeedCursor::at_position(position);
    EXPECT_EQ(cursor.text(), std::to_string(position));
    EXPECT_EQ(cursor.position(), position);
    EXPECT_EQ(cursor.scheme(), "");
    EXPECT_EQ(FeedCursor::parse(cursor.text()), cursor);
  }
}

TEST(FeedCursorTest, ACheckpointWrittenBeforeCursorsParsesAsItsPosition) {
  // EventFeedConsumer wrote std::to_string(next_position).
  const FeedCursor legacy = FeedCursor::parse(std::to_string(std::int64_t{42}));
  EXPECT_EQ(legacy.position(), 42);
  EXPECT_EQ(legacy, FeedCursor::at_position(42));
}

TEST(FeedCursorTest, OpaqueCursorsKeepSchemeAndBody) {
  const FeedCursor cursor = FeedCursor::opaque("mystore-2.1", "shard=7;seq=00ff:üñ");
  EXPECT_EQ(cursor.text(), "mystore-2.1:shard=7;seq=00ff:üñ");
  EXPECT_EQ(cursor.scheme(), "mystore-2.1");
  EXPECT_EQ(cursor.body(), "shard=7;seq=00ff:üñ") << "the body may hold ':'";
  EXPECT_EQ(cursor.position(), std::nullopt);
  EXPECT_FALSE(cursor.is_start());
  EXPECT_EQ(FeedCursor::parse(cursor.text()), cursor);
  EXPECT_NE(cursor, FeedCursor::opaque("mystore-2.1", "shard=7;seq=0100"));
  EXPECT_NE(FeedCursor::opaque("a1", "5"), FeedCursor::opaque("b1", "5"));

  std::ostringstream printed;
  printed << cursor;
  EXPECT_EQ(printed.str(), cursor.text());
}

TEST(FeedCursorTest, MalformedTextIsRefusedWithTheRuleItBreaks) {
  EXPECT_TRUE(mentions(parse_refusal(""), "is empty"));
  EXPECT_TRUE(mentions(parse_refusal("-1"), "has no scheme"));
  EXPECT_TRUE(mentions(parse_refusal("007"), "leading zero"));
  EXPECT_TRUE(mentions(parse_refusal("12a"), "not a decimal position"));
  EXPECT_TRUE(mentions(parse_refusal("1:x"), "not a decimal position"));
  EXPECT_TRUE(mentions(parse_refusal("99999999999999999999"), "beyond the largest"));
  EXPECT_TRUE(mentions(parse_refusal("abc"), "has no scheme"));
  EXPECT_TRUE(mentions(parse_refusal(":abc"), "does not start with a lower-case letter"));
  EXPECT_TRUE(mentions(parse_refusal("Store1:abc"), "does not start with a lower-case letter"));
  EXPECT_TRUE(mentions(parse_refusal("st_ore:abc"), "other than a-z, 0-9, '-' or '.'"));
  EXPECT_TRUE(mentions(parse_refusal(std::string(kMaxFeedCursorSchemeBytes + 1, 'a') + ":x"),
                       "over the limit of 32"));
  EXPECT_TRUE(mentions(parse_refusal("store1:"), "empty body"));
  EXPECT_TRUE(mentions(parse_refusal("store1:a\nb"), "control character (0x0A) at byte 8"));
  EXPECT_TRUE(mentions(parse_refusal("store1:\xC3"), "not valid UTF-8"));
  const std::string message = parse_refusal("outbox");
  EXPECT_TRUE(mentions(message, "'outbox'")) << message;
  EXPECT_TRUE(mentions(message, "a cursor the store's read_feed returned")) << message;
  EXPECT_NO_THROW(FeedCursor::parse(std::string(kMaxFeedCursorSchemeBytes, 'a') + ":x"));
}

TEST(FeedCursorTest, BadPartsAreRefusedWhenMade) {
  EXPECT_TRUE(mentions(make_refusal([] { FeedCursor::at_position(-1); }), "positions start at 1"));
  EXPECT_TRUE(mentions(make_refusal([] { FeedCursor::opaque("", "x"); }), "lower-case letter"));
  EXPECT_TRUE(mentions(make_refusal([] { FeedCursor::opaque("9a", "x"); }), "lower-case letter"));
  EXPECT_TRUE(mentions(make_refusal([] { FeedCursor::opaque("a:b", "x"); }), "a-z, 0-9"));
  EXPECT_TRUE(mentions(make_refusal([] { FeedCursor::opaque("store1", ""); }), "body is empty"));
  EXPECT_TRUE(
      mentions(make_refusal([] { FeedCursor::opaque("store1", "a\tb"); }), "control character"));
  EXPECT_TRUE(mentions(make_refusal([] { FeedCursor::opaque("store1", "\xFF"); }), "UTF-8"));
}

}  // namespace
}  // namespace docket::feed_cursor_test
