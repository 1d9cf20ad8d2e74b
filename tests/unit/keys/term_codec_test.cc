#include "docket/keys/term_codec.h"

#include <gtest/gtest.h>

namespace docket::keys {
namespace {

// Expected values are what .NET's Uri.EscapeDataString returns for the same input.
TEST(PercentEncode, MatchesUriEscapeDataString) {
  EXPECT_EQ(percent_encode("hello world"), "hello%20world");
  EXPECT_EQ(percent_encode("a/b"), "a%2Fb");
  EXPECT_EQ(percent_encode("caf\xC3\xA9"), "caf%C3%A9");  // café
  EXPECT_EQ(percent_encode("~keep-._"), "~keep-._");
  EXPECT_EQ(percent_encode("!*'()"), "%21%2A%27%28%29");
  EXPECT_EQ(percent_encode("a:b%c"), "a%3Ab%25c");
  EXPECT_EQ(percent_encode("?#[]@$&+,;="), "%3F%23%5B%5D%40%24%26%2B%2C%3B%3D");
  EXPECT_EQ(percent_encode("\xE4\xB8\xAD"), "%E4%B8%AD");         // 中
  EXPECT_EQ(percent_encode("\xF0\x9F\x98\x80"), "%F0%9F%98%80");  // 😀
  EXPECT_EQ(percent_encode("List`1[[System.String]]"), "List%601%5B%5BSystem.String%5D%5D");
  EXPECT_EQ(percent_encode(""), "");
}

TEST(PercentEncode, KeepsExactlyTheUnreservedBytes) {
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    const bool unreserved = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') ||
                            (b >= '0' && b <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    const std::string encoded = percent_encode(std::string(1, c));
    EXPECT_EQ(encoded.size(), unreserved ? 1u : 3u) << "byte " << b;
  }
}

TEST(PercentEncode, AppendsWithoutClearing) {
  std::string out = "prefix:";
  append_percent_encoded("a b", out);
  EXPECT_EQ(out, "prefix:a%20b");
}

TEST(EscapeReserved, EscapesOnlyPercentColonAndWhatIsAsked) {
  EXPECT_EQ(escape_reserved("a:b%c/d e"), "a%3Ab%25c/d e");
  EXPECT_EQ(escape_reserved("a/b\\c?d#e", "/\\?#"), "a%2Fb%5Cc%3Fd%23e");
  EXPECT_EQ(escape_reserved("caf\xC3\xA9_x"), "caf\xC3\xA9_x");
  std::string out = "k=";
  append_escaped_reserved("1:2", "", out);
  EXPECT_EQ(out, "k=1%3A2");
}

TEST(PercentDecode, InvertsBothEscapes) {
  const std::string samples[] = {"", "plain", "a:b%c/d e", "caf\xC3\xA9", std::string("\0x", 2)};
  for (const std::string& sample : samples) {
    EXPECT_EQ(percent_decode(percent_encode(sample)), sample);
    EXPECT_EQ(percent_decode(escape_reserved(sample, "/ ")), sample);
  }
}

TEST(PercentDecode, RefusesMalformedAndLowerCaseEscapes) {
  EXPECT_EQ(percent_decode("%"), std::nullopt);
  EXPECT_EQ(percent_decode("%4"), std::nullopt);
  EXPECT_EQ(percent_decode("ab%G0"), std::nullopt);
  EXPECT_EQ(percent_decode("%3a"), std::nullopt);
  EXPECT_EQ(percent_decode("%3A%25"), ":%");
}

}  // namespace
}  // namespace docket::keys
