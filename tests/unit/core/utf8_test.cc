#include "docket/core/utf8.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "docket/core/error.h"

namespace docket {
namespace {

using Kind = Utf8Defect::Kind;

std::string bytes(std::initializer_list<unsigned char> list) {
  return std::string(list.begin(), list.end());
}

TEST(Utf8Test, AcceptsAsciiAndEmpty) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("MyApp.Handlers.OrderHandler: 42_%/#?\\"));
  EXPECT_TRUE(is_valid_utf8(std::string_view("a\0b", 3)));
  EXPECT_TRUE(is_valid_utf8(bytes({0x7F})));
}

TEST(Utf8Test, AcceptsTwoThreeAndFourByteCharacters) {
  EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9"));                    // U+00E9
  EXPECT_TRUE(is_valid_utf8(bytes({0xC2, 0x80})));              // U+0080, smallest 2-byte
  EXPECT_TRUE(is_valid_utf8(bytes({0xDF, 0xBF})));              // U+07FF
  EXPECT_TRUE(is_valid_utf8("\xE2\x82\xAC"));                   // U+20AC euro sign
  EXPECT_TRUE(is_valid_utf8(bytes({0xE0, 0xA0, 0x80})));        // U+0800, smallest 3-byte
  EXPECT_TRUE(is_valid_utf8(bytes({0xED, 0x9F, 0xBF})));        // U+D7FF, below surrogates
  EXPECT_TRUE(is_valid_utf8(bytes({0xEE, 0x80, 0x80})));        // U+E000, above surrogates
  EXPECT_TRUE(is_valid_utf8(bytes({0xEF, 0xBF, 0xBF})));        // U+FFFF
  EXPECT_TRUE(is_valid_utf8("\xF0\x9F\x98\x80"));               // U+1F600
  EXPECT_TRUE(is_valid_utf8(bytes({0xF0, 0x90, 0x80, 0x80})));  // U+10000
  EXPECT_TRUE(is_valid_utf8(bytes({0xF4, 0x8F, 0xBF, 0xBF})));  // U+10FFFF, the last
  EXPECT_TRUE(is_valid_utf8("t:\xE6\x97\xA5\xE6\x9C\xAC:\xF0\x9F\x98\x80:x"));
}

struct DefectCase {
  std::string name;
  std::string input;
  Utf8Defect expected;
};

// NOLINTNEXTLINE(readability-identifier-naming): the name GoogleTest looks up.
void PrintTo(const DefectCase& defect_case, std::ostream* out) {
  *out << defect_case.name;
}

class Utf8DefectTest : public testing::TestWithParam<DefectCase> {};

TEST_P(Utf8DefectTest, ReportsKindAndOffset) {
  const DefectCase& c = GetParam();
  const auto defect = find_utf8_defect(c.input);
  ASSERT_TRUE(defect.has_value());
  EXPECT_EQ(*defect, c.expected) << "kind " << static_cast<int>(defect->kind) << " offset "
                                 << defect->offset;
  EXPECT_FALSE(is_valid_utf8(c.input));
}

INSTANTIATE_TEST_SUITE_P(
    Defects, Utf8DefectTest,
    testing::Values(
        DefectCase{"TruncatedTwoByteAtEnd", "ab\xC3", {Kind::kTruncatedSequence, 2}},
        DefectCase{"TruncatedThreeByteAtEnd", "x\xE2\x82", {Kind::kTruncatedSequence, 1}},
        DefectCase{"TruncatedFourByteAtEnd", "\xF0\x9F\x98", {Kind::kTruncatedSequence, 0}},
        DefectCase{"TruncatedMidString", "ab\xE2\x82z", {Kind::kTruncatedSequence, 2}},
        DefectCase{"TruncatedByNextLead", "\xC3\xC3\xA9", {Kind::kTruncatedSequence, 0}},
        DefectCase{"SurrogateLow", "ok\xED\xA0\x80", {Kind::kEncodedSurrogate, 2}},
        DefectCase{"SurrogateHigh", "\xED\xBF\xBF", {Kind::kEncodedSurrogate, 0}},
        DefectCase{"OverlongTwoByteNul", "a\xC0\x80", {Kind::kOverlongForm, 1}},
        DefectCase{"OverlongTwoByteC1", "\xC1\xBF", {Kind::kOverlongForm, 0}},
        DefectCase{"OverlongThreeByte", "\xE0\x80\x80", {Kind::kOverlongForm, 0}},
        DefectCase{"OverlongFourByte", "\xF0\x8F\xBF\xBF", {Kind::kOverlongForm, 0}},
        DefectCase{"BeyondUnicode", "abc\xF4\x90\x80\x80", {Kind::kBeyondUnicode, 3}},
        DefectCase{"BeyondUnicodeF7", "\xF7\xBF\xBF\xBF", {Kind::kBeyondUnicode, 0}},
        DefectCase{"LeadF8", "a\xF8\x88\x80\x80\x80", {Kind::kInvalidLeadByte, 1}},
        DefectCase{"LeadFF", "\xFF", {Kind::kInvalidLeadByte, 0}},
        DefectCase{"LoneContinuation", "abc\x80", {Kind::kUnexpectedContinuation, 3}},
        DefectCase{"ContinuationAfterChar", "\xC3\xA9\xA9", {Kind::kUnexpectedContinuation, 2}}),
    [](const testing::TestParamInfo<DefectCase>& param_info) { return param_info.param.name; });

// The scan skips ASCII eight bytes at a time: a defect or a multi-byte character at
// any position relative to those words, in strings of any length, is seen exactly.
TEST(Utf8Test, EveryOffsetAroundTheAsciiWordsIsChecked) {
  for (std::size_t length = 1; length <= 24; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      std::string text(length, 'a');
      text[at] = '\x80';
      EXPECT_EQ(find_utf8_defect(text), (Utf8Defect{Kind::kUnexpectedContinuation, at}))
          << "length " << length << " at " << at;
      if (at + 2 <= length) {
        text[at] = '\xC3';
        text[at + 1] = '\xA9';  // é straddling a word boundary somewhere in the loop
        EXPECT_TRUE(is_valid_utf8(text)) << "length " << length << " at " << at;
        text[at + 1] = 'a';
        EXPECT_EQ(find_utf8_defect(text), (Utf8Defect{Kind::kTruncatedSequence, at}))
            << "length " << length << " at " << at;
      }
    }
  }
}

TEST(Utf8Test, ReportsTheFirstDefect) {
  const auto defect = find_utf8_defect("\xC3\xA9ok\x80\xFF");
  ASSERT_TRUE(defect.has_value());
  EXPECT_EQ(*defect, (Utf8Defect{Kind::kUnexpectedContinuation, 4}));
}

TEST(Utf8Test, DescriptionNamesWhatReasonOffsetAndHexBytes) {
  const std::string input = "ab\xED\xA0\x80z";
  const auto defect = find_utf8_defect(input);
  ASSERT_TRUE(defect.has_value());
  const std::string text = describe_utf8_defect("message id", input, *defect);
  EXPECT_EQ(text,
            "message id is not valid UTF-8: encoded UTF-16 surrogate (U+D800..U+DFFF) at byte 2 "
            "of 6 (bytes there: ED A0 80 7A)");
  EXPECT_EQ(text.find('\xED'), std::string::npos) << "raw bytes must not be echoed";
}

TEST(Utf8Test, DescriptionAtEndShowsOnlyRemainingBytes) {
  const std::string input = "ab\xC3";
  const std::string text = describe_utf8_defect("tenant", input, *find_utf8_defect(input));
  EXPECT_NE(text.find("truncated multi-byte sequence at byte 2 of 3 (bytes there: C3)"),
            std::string::npos)
      << text;
}

TEST(Utf8Test, RequireValidThrowsInvalidInputNamingTheValue) {
  EXPECT_NO_THROW(require_valid_utf8("handler", "caf\xC3\xA9"));
  try {
    require_valid_utf8("handler", "x\xC0\x80");
    FAIL() << "expected InvalidInputError";
  } catch (const InvalidInputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("handler is not valid UTF-8: overlong encoding at byte 1", 0), 0u) << what;
    EXPECT_NE(what.find("never repairs"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace docket
